//! The built-in policies by name: what each one is, its name and its
//! parsing. What a policy does is in `search::decide`.

/// A policy: what chooses the actions of a seat.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Policy {
    /// Uniform over the legal actions (`choosers::random`).
    Random,
    /// Cheap baseline (`choosers::greedy`): lead the smallest combination,
    /// follow with the smallest play that beats, never over a partner, bomb
    /// only when an opponent is close to going out.
    Greedy,
    /// Decomposition-driven rules (`choosers::rule_based`): groups of a
    /// shortest decomposition, bombs held until they decide the deal, the
    /// partner's winning play left alone.
    Rule,
    /// A Monte Carlo search of every decision.
    Search(Search),
}

/// A Monte Carlo search: at most `playouts` playouts per decision, rolled
/// out with `rollout`, spread over the candidates by `spread`, scored by
/// `value`; `think_ms > 0` also stops it after that many milliseconds (then
/// not reproducible). Seeded by one draw of the policy's generator.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Search {
    pub playouts: u32,
    pub rollout: Rollout,
    pub spread: Spread,
    pub value: Value,
    pub think_ms: u32,
}

impl Search {
    /// Whether this is the first Monte Carlo policy, `mc:N` or
    /// `mc-random:N` (an even spread of greedy or random rollouts scored by
    /// the deal, no clock), which gives its tribute and return cards as the
    /// greedy policy does where the other searches give them as the rule
    /// policy does.
    pub fn is_plain_mc(&self) -> bool {
        self.spread == Spread::Even && self.rollout != Rollout::Rule && self.value == Value::Deal && self.think_ms == 0
    }
}

/// The policy playouts of a search are rolled out with.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Rollout {
    Random,
    Greedy,
    Rule,
}

/// How a search spreads its playouts over the candidate actions.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Spread {
    /// The same number for every candidate.
    Even,
    /// Successive halving: rounds of equal budget, the better half of the
    /// candidates kept after each.
    Halving,
    /// Information-set MCTS (`search::ismcts`): the playouts are its iterations.
    Tree,
}

/// What a playout is scored by.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Value {
    /// The deal's signed level change (`Context::score`).
    Deal,
    /// The game situation after the deal (`Context::game_score`): levels,
    /// who declares next, A attempts, and the game won or lost.
    Game,
}

/// Playouts per decision of the `mc` policy when none is given.
pub const MC_DEFAULT_PLAYOUTS: u32 = 200;

impl Policy {
    /// Name used in the API: `random`, `greedy`, `rule`, `mc:N`,
    /// `mc-random:N`, and for searches `HEAD[+game]:N[@Tms]` with `HEAD` one
    /// of `mc-rule` (even spread, rule rollouts), `sh` (successive halving,
    /// rule rollouts), `sh-greedy`, `sh-random`, `ismcts` (greedy rollouts),
    /// `ismcts-rule`, `ismcts-random` (and `mc` / `mc-random` with a modifier); `+game` scores by the game situation, `@Tms` adds a time budget.
    pub fn name(&self) -> String {
        match self {
            Policy::Random => "random".into(),
            Policy::Greedy => "greedy".into(),
            Policy::Rule => "rule".into(),
            Policy::Search(Search { playouts, rollout, spread, value, think_ms }) => {
                let head = match (spread, rollout) {
                    (Spread::Even, Rollout::Greedy) => "mc",
                    (Spread::Even, Rollout::Random) => "mc-random",
                    (Spread::Even, Rollout::Rule) => "mc-rule",
                    (Spread::Halving, Rollout::Greedy) => "sh-greedy",
                    (Spread::Halving, Rollout::Random) => "sh-random",
                    (Spread::Halving, Rollout::Rule) => "sh",
                    (Spread::Tree, Rollout::Greedy) => "ismcts",
                    (Spread::Tree, Rollout::Random) => "ismcts-random",
                    (Spread::Tree, Rollout::Rule) => "ismcts-rule",
                };
                let game = if *value == Value::Game { "+game" } else { "" };
                let time = if *think_ms > 0 { format!("@{think_ms}ms") } else { String::new() };
                format!("{head}{game}:{playouts}{time}")
            }
        }
    }

    /// The policy with this name (see `name`): `random`, `greedy`, `rule`,
    /// `mc` / `mc:N` (greedy rollouts), `mc-random` / `mc-random:N` (random
    /// rollouts), and the searches `mc-rule`, `sh`, `sh-greedy`, `sh-random`
    /// with an optional `+game`, `:N` playouts (default 200) and `@Tms`.
    pub fn from_name(name: &str) -> Option<Policy> {
        let name = name.trim();
        let (name, think_ms) = match name.split_once('@') {
            Some((n, t)) => (n, t.trim().strip_suffix("ms")?.trim().parse::<u32>().ok().filter(|&t| t >= 1)?),
            None => (name, 0),
        };
        let (head, n) = match name.split_once(':') {
            Some((h, n)) => (h, Some(n.trim().parse::<u32>().ok().filter(|&n| n >= 1)?)),
            None => (name, None),
        };
        let (head, value) = match head.trim().split_once('+') {
            Some((h, "game")) => (h.trim(), Value::Game),
            Some(_) => return None,
            None => (head.trim(), Value::Deal),
        };
        let (spread, rollout) = match head {
            "random" | "greedy" | "rule" if n.is_none() && value == Value::Deal && think_ms == 0 => {
                return Some(match head {
                    "random" => Policy::Random,
                    "greedy" => Policy::Greedy,
                    _ => Policy::Rule,
                })
            }
            "mc" => (Spread::Even, Rollout::Greedy),
            "mc-random" => (Spread::Even, Rollout::Random),
            "mc-rule" => (Spread::Even, Rollout::Rule),
            "sh" => (Spread::Halving, Rollout::Rule),
            "sh-greedy" => (Spread::Halving, Rollout::Greedy),
            "sh-random" => (Spread::Halving, Rollout::Random),
            "ismcts" => (Spread::Tree, Rollout::Greedy),
            "ismcts-random" => (Spread::Tree, Rollout::Random),
            "ismcts-rule" => (Spread::Tree, Rollout::Rule),
            _ => return None,
        };
        Some(Policy::Search(Search { playouts: n.unwrap_or(MC_DEFAULT_PLAYOUTS), rollout, spread, value, think_ms }))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) const NAMES: [&str; 11] =
        ["random", "greedy", "rule", "mc:6", "mc-rule:6", "sh:8", "sh-greedy:8", "sh+game:8", "mc+game:6", "ismcts:12", "ismcts-rule+game:6"];

    #[test]
    fn names_round_trip_and_bad_names_are_refused() {
        for n in NAMES.iter().chain(&["sh:100@50ms", "mc-random:3", "sh-random+game:9@1ms"]) {
            let p = Policy::from_name(n).unwrap_or_else(|| panic!("{n}"));
            assert_eq!(Policy::from_name(&p.name()), Some(p), "{n}");
        }
        assert_eq!(Policy::from_name("mc:50").unwrap().name(), "mc:50", "today's mc keeps its name and meaning");
        assert_eq!(
            Policy::from_name("mc:50"),
            Some(Policy::Search(Search { playouts: 50, rollout: Rollout::Greedy, spread: Spread::Even, value: Value::Deal, think_ms: 0 }))
        );
        assert_eq!(Policy::from_name("sh").unwrap().name(), "sh:200");
        for bad in ["rule:5", "sh:0", "sh:-1", "sh+fun:5", "sh:5@", "sh:5@0ms", "sh:5@10", "greedy+game", "rule@5ms", "ismcts:x", "ismcts-fast:3", ""]
        {
            assert_eq!(Policy::from_name(bad), None, "{bad}");
        }
    }
}
