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
    /// Rules on a valued decomposition (`choosers::rule_based`): plays
    /// chosen by what they do to the hand's value, the partner, the
    /// opponents' hand sizes and the cards played.
    Rule,
    /// The first rule policy (`choosers::rule_v1`): the hidden-hand
    /// inference's likelihood model and a yardstick.
    RuleV1,
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
    /// Candidates searched: the prior's first `width` (`search::candidates`),
    /// every legal action for 0.
    pub width: u8,
    /// A focused search's worlds weighted by the likelihood of the deal's public actions
    /// (`search::infer`, the model `decide::INFER_EPSILON`, `decide::INFER_MAX_CARDS`) where the search sees the deal's
    /// history (a game or an observation); uniform worlds otherwise.
    pub infer: bool,
    /// A focused search's rollouts settled by the exact endgame solver once
    /// few cards are left (`leaf::EXACT`); played to the deal's end otherwise.
    pub exact: bool,
}

impl Search {
    /// Whether this is the first Monte Carlo policy, `mc:N` or
    /// `mc-random:N` (an even spread of greedy or random rollouts scored by
    /// the deal, no clock), which gives its tribute and return cards as the
    /// greedy policy does where the other searches give them as the rule
    /// policy does.
    pub fn is_plain_mc(&self) -> bool {
        self.spread == Spread::Even
            && matches!(self.rollout, Rollout::Greedy | Rollout::Random)
            && self.value == Value::Deal
            && self.think_ms == 0
            && self.width == 0
            && !self.infer
            && !self.exact
    }
}

/// The policy playouts of a search are rolled out with.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Rollout {
    Random,
    Greedy,
    Rule,
    /// The rule policy for the next `MIX_CARDS` cards played, greedy after.
    Mixed,
}

impl Rollout {
    /// The rollout policy named `random`, `greedy`, `rule` or `mix` (the
    /// rule policy for the first `MIX_CARDS` cards, greedy after).
    pub fn from_name(name: &str) -> Option<Rollout> {
        Rollout::ALL.into_iter().find(|r| r.name() == name)
    }

    /// Every rollout policy.
    pub const ALL: [Rollout; 4] = [Rollout::Random, Rollout::Greedy, Rollout::Rule, Rollout::Mixed];

    /// The name `from_name` reads.
    pub fn name(self) -> &'static str {
        match self {
            Rollout::Random => "random",
            Rollout::Greedy => "greedy",
            Rollout::Rule => "rule",
            Rollout::Mixed => "mix",
        }
    }
}

/// Cards played by the rule policy at the start of a `Rollout::Mixed` rollout.
pub const MIX_CARDS: u32 = 24;

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
    /// Racing among few candidates on shared worlds, the rule policy's
    /// choice kept unless another is clearly better (`search::focus`).
    Focus,
}

/// Candidates a `Spread::Focus` search keeps when its name gives no width.
pub const FOCUS_WIDTH: u8 = 8;

impl Spread {
    /// The width a name of this spread means when it gives none.
    pub fn default_width(self) -> u8 {
        match self {
            Spread::Focus => FOCUS_WIDTH,
            _ => 0,
        }
    }
}

/// What a playout is scored by.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Value {
    /// The deal's signed level change (`Context::score`).
    Deal,
    /// The game situation after the deal (`Context::game_score`): levels,
    /// who declares next, A attempts, and the game won or lost.
    Game,
    /// The chance of winning the game after the deal less before it
    /// (`value::WinModel`).
    Win,
}

/// What the name `best` means: the strongest bot against the competition's
/// public entrants under the platform rules (benches/README.md, "Sparring")
/// within about a second per decision on two cores.
pub const BEST: &str = "focus+win+infer:2400/16";

/// Playouts per decision of the `mc` policy when none is given.
pub const MC_DEFAULT_PLAYOUTS: u32 = 200;

impl Policy {
    /// Whether a decision searches (long enough to be watched for Ctrl-C);
    /// the other policies decide in microseconds.
    pub fn searches(&self) -> bool {
        matches!(self, Policy::Search(_))
    }

    /// Name used in the API: `random`, `greedy`, `rule`, `rule-v1`, `mc:N`,
    /// `mc-random:N`, and for searches `HEAD[+VALUE]:N[/W][@Tms]` with `HEAD`
    /// one of `mc-rule` (even spread, rule rollouts), `sh` (successive
    /// halving, rule rollouts), `sh-greedy`, `sh-random`, `ismcts` (greedy
    /// rollouts), `ismcts-rule`, `ismcts-random`, `focus` (racing among the
    /// prior's candidates, rule rollouts), `focus-greedy`, `focus-random`
    /// (and `mc` / `mc-random` with a modifier); `+game` scores by the game
    /// situation, `+win` by the chance of winning the game, then `+infer`
    /// weights the worlds by the deal's public actions and `+exact` settles
    /// rollouts by the exact endgame solver (both for `focus` heads), `/W` searches the
    /// prior's first `W` candidates (default: every action; 8 for `focus`),
    /// `@Tms` adds a time budget.
    pub fn name(&self) -> String {
        match self {
            Policy::Random => "random".into(),
            Policy::Greedy => "greedy".into(),
            Policy::Rule => "rule".into(),
            Policy::RuleV1 => "rule-v1".into(),
            Policy::Search(Search { playouts, rollout, spread, value, think_ms, width, infer, exact }) => {
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
                    (Spread::Focus, Rollout::Rule) => "focus",
                    (Spread::Focus, Rollout::Greedy) => "focus-greedy",
                    (Spread::Focus, Rollout::Random) => "focus-random",
                    (Spread::Even, Rollout::Mixed) => "mc-mix",
                    (Spread::Halving, Rollout::Mixed) => "sh-mix",
                    (Spread::Tree, Rollout::Mixed) => "ismcts-mix",
                    (Spread::Focus, Rollout::Mixed) => "focus-mix",
                };
                let value = match value {
                    Value::Deal => "",
                    Value::Game => "+game",
                    Value::Win => "+win",
                };
                let infer = if *infer { "+infer" } else { "" };
                let exact = if *exact { "+exact" } else { "" };
                let width = if *width != spread.default_width() { format!("/{width}") } else { String::new() };
                let time = if *think_ms > 0 { format!("@{think_ms}ms") } else { String::new() };
                format!("{head}{value}{infer}{exact}:{playouts}{width}{time}")
            }
        }
    }

    /// The policy with this name (see `name`): `random`, `greedy`, `rule`, `rule-v1`,
    /// `mc` / `mc:N` (greedy rollouts), `mc-random` / `mc-random:N` (random
    /// rollouts), and the searches with an optional `+game` or `+win`, `+infer`, `+exact`, `:N`
    /// playouts (default 200), `/W` candidates (1..=255) and `@Tms`; `best`
    /// is the strongest bot measured against the competition's entrants
    /// (`BEST`, named by its own name once parsed), and `best@Tms` the same
    /// with a time budget.
    pub fn from_name(name: &str) -> Option<Policy> {
        let name = name.trim();
        if let Some(time) = name.strip_prefix("best") {
            let time = time.trim_start();
            if !time.is_empty() && !time.starts_with('@') {
                return None;
            }
            return Policy::from_name(&format!("{BEST}{time}"));
        }
        let (name, think_ms) = match name.split_once('@') {
            Some((n, t)) => (n, t.trim().strip_suffix("ms")?.trim().parse::<u32>().ok().filter(|&t| t >= 1)?),
            None => (name, 0),
        };
        let (name, width) = match name.split_once('/') {
            Some((n, w)) => (n, Some(w.trim().parse::<u8>().ok().filter(|&w| w >= 1)?)),
            None => (name, None),
        };
        let (head, n) = match name.split_once(':') {
            Some((h, n)) => (h, Some(n.trim().parse::<u32>().ok().filter(|&n| n >= 1)?)),
            None => (name, None),
        };
        let mut parts = head.split('+').map(str::trim);
        let head = parts.next()?;
        let (mut value, mut infer, mut exact) = (None, false, false);
        for m in parts {
            match m {
                "game" | "win" if value.is_none() && !infer && !exact => value = Some(if m == "game" { Value::Game } else { Value::Win }),
                "infer" if !infer && !exact => infer = true,
                "exact" if !exact => exact = true,
                _ => return None,
            }
        }
        let value = value.unwrap_or(Value::Deal);
        let plain = n.is_none() && value == Value::Deal && think_ms == 0 && width.is_none() && !infer && !exact;
        let (spread, rollout) = match head {
            "random" if plain => return Some(Policy::Random),
            "greedy" if plain => return Some(Policy::Greedy),
            "rule" if plain => return Some(Policy::Rule),
            "rule-v1" if plain => return Some(Policy::RuleV1),
            _ => search_head(head)?,
        };
        if (infer || exact) && spread != Spread::Focus {
            return None;
        }
        let width = width.unwrap_or(spread.default_width());
        Some(Policy::Search(Search { playouts: n.unwrap_or(MC_DEFAULT_PLAYOUTS), rollout, spread, value, think_ms, width, infer, exact }))
    }
}

/// The spread and rollout policy of a search head.
fn search_head(head: &str) -> Option<(Spread, Rollout)> {
    Some(match head {
        "mc" => (Spread::Even, Rollout::Greedy),
        "mc-random" => (Spread::Even, Rollout::Random),
        "mc-rule" => (Spread::Even, Rollout::Rule),
        "sh" => (Spread::Halving, Rollout::Rule),
        "sh-greedy" => (Spread::Halving, Rollout::Greedy),
        "sh-random" => (Spread::Halving, Rollout::Random),
        "ismcts" => (Spread::Tree, Rollout::Greedy),
        "ismcts-random" => (Spread::Tree, Rollout::Random),
        "ismcts-rule" => (Spread::Tree, Rollout::Rule),
        "focus" => (Spread::Focus, Rollout::Rule),
        "focus-greedy" => (Spread::Focus, Rollout::Greedy),
        "focus-random" => (Spread::Focus, Rollout::Random),
        "mc-mix" => (Spread::Even, Rollout::Mixed),
        "sh-mix" => (Spread::Halving, Rollout::Mixed),
        "ismcts-mix" => (Spread::Tree, Rollout::Mixed),
        "focus-mix" => (Spread::Focus, Rollout::Mixed),
        _ => return None,
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) const NAMES: [&str; 15] = [
        "random",
        "greedy",
        "rule",
        "rule-v1",
        "mc:6",
        "mc-rule:6",
        "sh:8",
        "sh-greedy:8",
        "sh+game:8",
        "mc+game:6",
        "ismcts:12",
        "ismcts-rule+game:6",
        "focus:8",
        "focus-greedy+win:12/4",
        "sh:8/3",
    ];

    #[test]
    fn names_round_trip_and_bad_names_are_refused() {
        for n in NAMES.iter().chain(&[
            "sh:100@50ms",
            "mc-random:3",
            "sh-random+game:9@1ms",
            "sh:40/6",
            "focus/3@9ms",
            "focus-greedy+win:30/12",
            "focus-mix:5",
            "sh-mix+game:7/2",
            "focus+win+infer:9",
            "focus+win+exact:9",
            "focus+infer+exact:7/3",
            "focus-greedy+exact:5",
            "focus-greedy+infer:4/3",
        ]) {
            let p = Policy::from_name(n).unwrap_or_else(|| panic!("{n}"));
            assert_eq!(Policy::from_name(&p.name()), Some(p), "{n}");
        }
        for r in Rollout::ALL {
            assert_eq!(Rollout::from_name(r.name()), Some(r));
        }
        assert_eq!(Rollout::from_name("Rule"), None);
        assert_eq!(Policy::from_name("mc:50").unwrap().name(), "mc:50", "today's mc keeps its name and meaning");
        assert_eq!(
            Policy::from_name("mc:50"),
            Some(Policy::Search(Search {
                playouts: 50,
                rollout: Rollout::Greedy,
                spread: Spread::Even,
                value: Value::Deal,
                think_ms: 0,
                width: 0,
                infer: false,
                exact: false
            }))
        );
        assert_eq!(Policy::from_name("sh").unwrap().name(), "sh:200");
        assert_eq!(Policy::from_name(" best "), Policy::from_name(BEST));
        assert!(matches!(Policy::from_name("best"), Some(Policy::Search(_))));
        assert_eq!(Policy::from_name("best@900ms").unwrap().name(), format!("{BEST}@900ms"));
        assert_eq!(Policy::from_name(" best @ 900 ms "), Policy::from_name("best@900ms"));
        assert_eq!(Policy::from_name("focus/8").unwrap().name(), "focus:200");
        assert_eq!(Policy::from_name("focus:50/4").unwrap().name(), "focus:50/4");
        for bad in [
            "best:5",
            "best+win",
            "best@",
            "best@0ms",
            "best@5",
            "best@5ms@6ms",
            "bestx",
            "rule/3",
            "sh+infer:4",
            "focus+infer+win:5",
            "sh+infer+infer:5",
            "rule+infer",
            "focus+game+win:3",
            "sh:5/0",
            "sh:5/x",
            "sh:5/300",
            "focus+lose:4",
            "rule:5",
            "rule-v1:5",
            "rule-v1+infer",
            "sh+exact:5",
            "focus+exact+infer:5",
            "focus+exact+exact:5",
            "sh:0",
            "sh:-1",
            "sh+fun:5",
            "sh:5@",
            "sh:5@0ms",
            "sh:5@10",
            "greedy+game",
            "rule@5ms",
            "ismcts:x",
            "ismcts-fast:3",
            "",
        ] {
            assert_eq!(Policy::from_name(bad), None, "{bad}");
        }
    }
}
