//! The rule policy (`"rule"`): a hand valued by its cheapest decomposition
//! (`movegen::decompose::plan`, each play costing what it needs to be
//! played less what its strength can win back), plays chosen by what they
//! do to that value, and the table read: the partner's and opponents' hand
//! sizes, the cards already played (which plays nobody can beat). It reads
//! only what the seat to move knows: its own hand, the hand sizes and the
//! public knowledge of the deal.

use crate::cards::cardset::CardSet;
use crate::error::Result;
use crate::game::trick::{partner, PlayState};
use crate::game::Action;
use crate::movegen::combo::{rank_value, Kind};
use crate::movegen::decompose::{hand_cost_after, plan, plan_into, Costs, Counts, Group, Plan};
use crate::movegen::{families_of, ComboRules, Families, Mode, Move, MoveGen, ALL_FAMILIES, BOMB_FAMILIES, NON_BOMB_FAMILIES};
use crate::rng::Rng;
use crate::search::choosers::{best_by, playout_plans, tribute_by, Chooser};
use crate::search::context::Context;
use crate::search::run::Run;
use crate::search::tuning::param;
use smallvec::SmallVec;
use std::cell::{Cell, Ref, RefCell};

/// The rule policy.
#[derive(Clone, Copy, Debug, Default)]
pub struct RuleBased;

impl Chooser for RuleBased {
    #[inline]
    fn choose(&self, state: &PlayState, ctx: &Context, moves: &[Move], _: &mut Rng, _: &Run) -> Result<Option<usize>> {
        Ok(choose(state, ctx, moves))
    }

    /// Listing only the families of plays the decision looks at.
    #[inline]
    fn pick(&self, state: &PlayState, ctx: &Context, _: &mut Rng, buf: &mut Vec<Move>, run: &Run) -> Result<Option<Move>> {
        Ok(pick(state, ctx, run.mode, buf))
    }

    #[inline]
    fn uses_knowledge(&self) -> bool {
        true
    }

    #[inline]
    fn keeps_plans(&self) -> bool {
        true
    }
}

/// What each play costs in the rule policy's hand value (hundredths of a
/// play): weak plays a whole play, strong ones less (a big joker 15), bombs
/// below nothing (each takes a trick back).
pub const VALUE: Costs = Costs {
    //       2    3    4    5    6    7    8    9    T   J   Q   K   A  lvl  BJ  RJ
    single: [100, 100, 100, 100, 100, 100, 100, 95, 90, 85, 80, 72, 62, 48, 32, 15],
    pair: [100, 100, 100, 100, 100, 100, 100, 95, 90, 84, 78, 70, 55, 40, 8, 0],
    triple: [100, 100, 100, 100, 100, 100, 100, 96, 92, 88, 84, 78, 70, 60],
    bomb: [0, 0, 0, 0, -20, -30, -45, -60, -70, -80, -90],
    straight: [100, 100, 100, 98, 95, 92, 88, 84, 78, 70],
    tube: [100, 100, 100, 100, 97, 94, 91, 88, 85, 80, 75, 70],
    plate: [100, 100, 100, 100, 97, 94, 91, 88, 85, 82, 78, 74, 70],
    joker_bomb: -100,
};

/// The costs the rule policy plays by: `VALUE`, or with the `tuning`
/// feature the table `GUANDAN_RULE_VALUE` gives (`VALUE`'s 93 numbers in
/// its order, comma-separated; benches/rule_value.py).
#[cfg(not(feature = "tuning"))]
#[inline(always)]
pub fn value() -> &'static Costs {
    &VALUE
}

/// The costs the rule policy plays by: `VALUE`, or with the `tuning`
/// feature the table `GUANDAN_RULE_VALUE` gives (`VALUE`'s 93 numbers in
/// its order, comma-separated; benches/rule_value.py).
#[cfg(feature = "tuning")]
pub fn value() -> &'static Costs {
    static TABLE: std::sync::OnceLock<Costs> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| match std::env::var("GUANDAN_RULE_VALUE") {
        Ok(text) if !text.trim().is_empty() => {
            let v: Vec<i16> = text.split(',').map(|x| x.trim().parse().expect("GUANDAN_RULE_VALUE holds integers")).collect();
            Costs::from_slots(&v).expect("GUANDAN_RULE_VALUE holds 93 numbers")
        }
        _ => VALUE,
    })
}

/// An opponent with this many cards or fewer may go out soon: worth a
/// strong card, a broken group or a bomb to stop.
pub const RULE_DANGER: u32 = 6;

/// The least a follow may take off the hand's cost (a negative value: what
/// it may add), when nothing presses: a pair or triple may be broken to
/// keep the opponents from leading again.
const FOLLOW_GAIN: i32 = -40;

/// The same when the trick matters (its player is about to go out).
const URGENT_GAIN: i32 = -40;

/// What a follow nobody can beat (but with a bomb) is worth besides its
/// gain: the lead it takes.
const BOSS_BONUS: i32 = 40;

/// What the seat to move sees: its hand and plan, the table, the cards
/// nobody has shown.
struct View<'a> {
    state: &'a PlayState,
    me: u8,
    mate: u8,
    level: u8,
    counts: Counts,
    /// The hand's plan, found when first asked for (many decisions need
    /// none, and then no plan is built at all).
    plan: RefCell<Option<Plan>>,
    /// The cards in the other three hands (not ours, not played).
    unseen: Unseen,
}

impl View<'_> {
    #[inline]
    fn plan(&self) -> Ref<'_, Plan> {
        if self.plan.borrow().is_none() {
            self.find_plan();
        }
        Ref::map(self.plan.borrow(), |p| p.as_ref().expect("found above"))
    }

    /// Fills `plan`: the plan kept in a playout, or the hand's own.
    #[inline(never)]
    fn find_plan(&self) {
        let mut slot = self.plan.borrow_mut();
        let p = slot.insert(Plan::EMPTY);
        if !playout_plans::get(self.me, self.state.hands[self.me as usize], p) {
            plan_into(self.counts, self.level, value(), p);
        }
    }

    fn size(&self, s: u8) -> u32 {
        self.state.hands[s as usize].len()
    }

    fn live(&self, s: u8) -> bool {
        !self.state.is_out(s)
    }

    /// The opponents still holding cards.
    fn opponents(&self) -> impl Iterator<Item = u8> + '_ {
        [(self.me + 1) % 4, (self.me + 3) % 4].into_iter().filter(|&s| self.live(s))
    }

    /// The fewest cards an opponent holds (`u32::MAX` when both are out).
    fn shortest(&self) -> u32 {
        self.opponents().map(|s| self.size(s)).min().unwrap_or(u32::MAX)
    }

    /// The hand's cost after playing `m`: by the plan when `m` is one of its
    /// groups, else by a fresh search.
    fn after(&self, m: &Move) -> i32 {
        let mc = Counts::of_play(m.cards, self.level);
        match self.group_of(mc) {
            Some(g) => self.plan().cost - g.cost as i32,
            None => hand_cost_after(self.counts, mc, self.level, value()),
        }
    }

    fn group_of(&self, mc: Counts) -> Option<Group> {
        let p = self.plan();
        p.position(mc).map(|j| p.groups()[j])
    }

    /// Whether no hand but ours can beat `m` except with a bomb (by the
    /// cards not yet seen).
    fn is_boss(&self, m: &Move) -> bool {
        self.unseen.boss(m.combo.kind, m.combo.value(self.level))
    }

    /// Whether the hand after `m` leaves at most one group that does not
    /// control its kind: with the lead, it goes out. In a playout, a group
    /// of the plan leaves the rest of the plan (as `playout_plans` keeps it).
    fn runs_out(&self, m: &Move) -> bool {
        let mc = Counts::of_play(m.cards, self.level);
        let kept = if playout_plans::open() { self.plan().position(mc) } else { None };
        let weak = match kept {
            Some(j) => {
                let p = self.plan();
                let g = p.groups();
                self.weak(g[..j].iter().chain(&g[j + 1..]))
            }
            None => self.weak(plan(self.counts.minus(mc), self.level, value()).groups()),
        };
        weak <= 1
    }

    /// How many of `groups` do not control their kind.
    fn weak<'g>(&self, groups: impl IntoIterator<Item = &'g Group>) -> usize {
        groups.into_iter().filter(|g| !self.controls(g)).count()
    }

    /// Whether a group of the plan is a boss (or a bomb).
    fn controls(&self, g: &Group) -> bool {
        g.kind.is_bomb() || self.unseen.boss(g.kind, group_value(g, self.level))
    }
}

/// The value compared within a kind (`Combo::value`) of a plan's group.
fn group_value(g: &Group, level: u8) -> u8 {
    match g.kind {
        Kind::Straight | Kind::Tube | Kind::Plate => crate::movegen::combo::run_position(g.rank),
        _ => rank_value(g.rank, level),
    }
}

/// The cards nobody has shown (the other three hands) and, found when
/// first asked, the highest play of each kind they can make.
struct Unseen {
    counts: Counts,
    level: u8,
    /// By kind (`Unseen::class`): the highest value (`Combo::value`) of a
    /// play the cards can make, -1 for none, `UNKNOWN` until asked.
    tops: [Cell<i8>; 6],
}

/// A kind's highest play not yet looked for.
const UNKNOWN: i8 = i8::MIN;

impl Unseen {
    fn new(cards: CardSet, level: u8) -> Unseen {
        Unseen { counts: Counts::of(cards, level, ComboRules::default()), level, tops: [const { Cell::new(UNKNOWN) }; 6] }
    }

    /// Whether the cards can make no play of `kind` and its size above
    /// `value` (bombs aside).
    #[inline]
    fn boss(&self, kind: Kind, value: u8) -> bool {
        let Some(class) = Unseen::class(kind) else {
            return true;
        };
        let mut top = self.tops[class].get();
        if top == UNKNOWN {
            top = self.find_top(kind, class);
        }
        value as i8 >= top
    }

    /// `top` of `kind`, kept in its slot `class` of `tops`.
    #[inline(never)]
    fn find_top(&self, kind: Kind, class: usize) -> i8 {
        let top = self.top(kind);
        self.tops[class].set(top);
        top
    }

    /// The slot of `kind` in `tops` (`None` for bombs).
    fn class(kind: Kind) -> Option<usize> {
        match kind {
            Kind::Single => Some(0),
            Kind::Pair => Some(1),
            Kind::Triple | Kind::FullHouse => Some(2),
            Kind::Straight => Some(3),
            Kind::Tube => Some(4),
            Kind::Plate => Some(5),
            _ => None,
        }
    }

    /// The highest value of a play of `kind` (bombs aside) the cards can
    /// make, -1 for none: singles, pairs, triples and full houses by the
    /// counts of each rank (wildcards standing in for naturals), runs by
    /// each position.
    fn top(&self, kind: Kind) -> i8 {
        match kind.run_shape() {
            Some((len, copies)) => self.counts.top_run(len, copies),
            None => {
                let need = match kind {
                    Kind::Single => 1,
                    Kind::Pair => 2,
                    _ => 3,
                };
                self.counts.top_same(need, self.level)
            }
        }
    }
}

/// The rule policy's choice among `moves` for the seat to move (`None` = pass).
pub fn choose(state: &PlayState, ctx: &Context, moves: &[Move]) -> Option<usize> {
    let m = decide(state, ctx, &mut Plays::Given(moves))?;
    moves.iter().position(|x| *x == m)
}

/// The play `choose` picks among the plays listed by `mode`, listing only
/// the families of plays the decision looks at (`None` = pass); `buf` is scratch.
pub fn pick(state: &PlayState, ctx: &Context, mode: Mode, buf: &mut Vec<Move>) -> Option<Move> {
    if state.over {
        return None;
    }
    decide(state, ctx, &mut Plays::Listed { gen: state.move_gen(), mode, buf })
}

/// The plays a decision looks at: the list it was given, or the seat's
/// plays listed family by family as the decision asks for them.
enum Plays<'a> {
    Given(&'a [Move]),
    Listed { gen: MoveGen, mode: Mode, buf: &'a mut Vec<Move> },
}

impl Plays<'_> {
    /// The plays of `families`, in listing order; a given list whole (what
    /// asks for them passes over the other families' plays anyway).
    fn of(&mut self, families: Families) -> &[Move] {
        match self {
            Plays::Given(moves) => moves,
            Plays::Listed { gen, mode, buf } => {
                buf.clear();
                let mut g = *gen;
                g.keep_families(families);
                g.generate(*mode, buf);
                buf
            }
        }
    }

    /// Whether a play may take every card of `hand` (listed or not).
    fn may_go_out(&self, hand: CardSet) -> bool {
        match self {
            Plays::Given(_) => true,
            Plays::Listed { gen, .. } => gen.may_be_one_play(hand.len()),
        }
    }
}

/// The play among `moves` with the smallest key (`best_by`).
fn best_of<K: Ord>(moves: &[Move], key: impl FnMut(&Move) -> Option<K>) -> Option<Move> {
    best_by(moves, key).map(|i| moves[i])
}

/// The rule policy's play for the seat to move among `plays` (`None` = pass).
fn decide(state: &PlayState, ctx: &Context, plays: &mut Plays) -> Option<Move> {
    let me = state.current;
    let hand = state.hands[me as usize];
    // Going out at once wins everything else (a play of every card the
    // hand holds: a leader's among the families of plays of its size).
    if plays.may_go_out(hand) {
        let n = hand.len();
        let following = state.top.is_some();
        let moves = plays.of(if following { ALL_FAMILIES } else { families_of(n, 1) | families_of(n, 3) });
        if let Some(m) = moves.iter().find(|m| m.cards == hand) {
            return Some(*m);
        }
        // Following with no play at all.
        if following && moves.is_empty() {
            return None;
        }
    }
    let level = state.level;
    let counts = Counts::of(hand, level, state.rules);
    let unseen = ctx.knowledge.played.iter().fold(CardSet::FULL_DECK.minus(hand), |u, p| u.minus(*p));
    let unseen = Unseen::new(unseen, level);
    let v = View { state, me, mate: partner(me), level, counts, plan: RefCell::new(None), unseen };
    let choice = match state.top {
        None => Some(lead(&v, plays)),
        Some(_) if state.top_seat == v.mate => support(&v, plays),
        Some(_) => follow(&v, plays),
    };
    // In a playout, a group of the plan played leaves the rest of the plan
    // for the seat's next decision.
    if let (Some(m), Some(p), true) = (choice, v.plan.borrow().as_ref(), playout_plans::open()) {
        if let Some(j) = p.position(Counts::of_play(m.cards, level)) {
            playout_plans::keep(me, hand.minus(m.cards), |slot| slot.copy_without(p, j));
        }
    }
    choice
}

fn lead(v: &View, plays: &mut Plays) -> Move {
    let level = v.level;
    let shortest = v.shortest();
    let mate_cards = if v.live(v.mate) { v.size(v.mate) } else { u32::MAX };
    // A partner with one or two cards gets the lowest single (or pair) to go out over.
    if mate_cards <= 2 && shortest > mate_cards.min(1) {
        let moves = plays.of(families_of(1, 1) | families_of(2, 1));
        let kind = if mate_cards == 2 && moves.iter().any(|m| m.combo.kind == Kind::Pair) { Kind::Pair } else { Kind::Single };
        if let Some(m) = best_of(moves, |m| (m.combo.kind == kind).then(|| (m.combo.value(level), -v.after(m), m.wild))) {
            return m;
        }
    }
    let plan = v.plan();
    let groups = plan.groups();
    // Which groups control their kind (bit j for group j), and how many do not.
    let strong = groups.iter().enumerate().fold(0u64, |s, (j, g)| s | (v.controls(g) as u64) << j);
    let weak = groups.len() - strong.count_ones() as usize;
    // Lead a group of the plan. With at most one weak group left, the
    // strong ones first (each keeps the lead), bombs last; else the weakest
    // first (the most cards among equals), not a single or pair an
    // opponent with that many cards or fewer may go out over.
    let key = |m: &Move| {
        let mc = Counts::of_play(m.cards, level);
        let j = plan.position(mc)?;
        let g = &groups[j];
        let strong = strong >> j & 1 != 0;
        let bomb = m.combo.kind.is_bomb();
        let risky = (shortest <= 2 && m.combo.size as u32 <= shortest && matches!(m.combo.kind, Kind::Single | Kind::Pair) && !v.is_boss(m)) as u8;
        let order = if weak <= 1 { (bomb, !strong, -(g.cost as i32)) } else { (bomb, false, -(g.cost as i32)) };
        Some((order.0, risky, order.1, order.2, std::cmp::Reverse(m.combo.size), m.combo.value(level), m.wild, m.combo.kind == Kind::StraightFlush))
    };
    // Only the families that may hold a group of the plan can have a key.
    let families = groups.iter().fold(0, |f, g| f | g.counts.families());
    if let Some(m) = best_of(plays.of(families), key) {
        return m;
    }
    best_of(plays.of(ALL_FAMILIES), |m| Some((m.combo.kind.is_bomb(), -v.after(m), m.combo.value(level)))).expect("a leader has a play")
}

/// The partner holds the trick: it stands, unless the next opponent is
/// about to go out over it (then the strongest play that keeps the hand's
/// shape, to stop them).
fn support(v: &View, plays: &mut Plays) -> Option<Move> {
    let top = v.state.top?;
    let next = (v.me + 1) % 4;
    let threat = v.live(next) && v.size(next) <= top.combo.size as u32 && !top_is_boss(v, &top);
    if !threat {
        if param("overtake", 0) == 0 {
            return None;
        }
        // Over the partner only with a group of the plan nobody can beat
        // after which the hand runs out.
        let level = v.level;
        return best_of(plays.of(NON_BOMB_FAMILIES), |m| {
            let take = !m.combo.kind.is_bomb() && v.group_of(Counts::of_play(m.cards, level)).is_some() && v.is_boss(m) && v.runs_out(m);
            take.then(|| m.combo.value(level))
        });
    }
    let moves = plays.of(NON_BOMB_FAMILIES);
    if moves.is_empty() {
        return None;
    }
    let cost = v.plan().cost;
    best_of(moves, |m| (!m.combo.kind.is_bomb() && cost - v.after(m) >= 0).then(|| (!v.is_boss(m), std::cmp::Reverse(m.combo.value(v.level)))))
}

fn top_is_boss(v: &View, top: &Move) -> bool {
    top.combo.kind.is_bomb() || v.is_boss(top)
}

fn follow(v: &View, plays: &mut Plays) -> Option<Move> {
    let state = v.state;
    let ts = state.top_seat;
    // Beating an opponent who went out with its play stops its partner from leading (接风).
    let feeds = state.is_out(ts);
    let urgent = feeds || v.size(ts) <= param("urgent_size", RULE_DANGER as i32) as u32;
    let shortest = v.shortest();
    let danger = urgent || shortest <= param("bomb_size", RULE_DANGER as i32) as u32 || racing(v);
    let need = if urgent { param("urgent_gain", URGENT_GAIN) } else { param("follow_gain", FOLLOW_GAIN) };
    let lead_bonus = param("boss_bonus", BOSS_BONUS);
    // The play that takes most off the hand's cost, when that is enough;
    // when the trick matters, one nobody can beat first.
    let plain = best_follow(v, plays.of(NON_BOMB_FAMILIES), need, lead_bonus, urgent);
    if plain.is_some() {
        return plain;
    }
    // A bomb when an opponent is about to go out, or when taking the lead
    // leaves at most one weak group to go out with; the smallest bomb, the
    // joker bomb last.
    let worth = |m: &Move| danger || v.runs_out(m);
    best_of(plays.of(BOMB_FAMILIES), |m| {
        (m.combo.kind.is_bomb() && worth(m)).then(|| (m.combo.kind == Kind::JokerBomb, -v.after(m), m.combo.bomb_power(v.level)))
    })
}

/// Whether a seat has gone out, so that every bomb goes to finishing
/// before the opponents: after the partner, each opponent out first costs
/// the team a level (双上 the most); after an opponent, the last two
/// places decide whether the deal is lost by three.
fn racing(v: &View) -> bool {
    match param("race", 0) {
        1 => !v.live(v.mate),
        2 => v.state.n_out > 0,
        _ => false,
    }
}

/// The order of follows, least first: (whether a boss is wanted and it is
/// not one, -gain, value, wildcards).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct FollowKey(bool, i32, u8, u8);

/// The non-bomb play among `moves` that takes most off the hand's cost (a
/// play nobody can beat counting `bonus` more, and first when `urgent`),
/// if that is at least `need`; the lowest among equals. The plan's own
/// groups are valued from the plan; another play takes a search only when
/// what it costs as a play (at most what it can take off) could make it the best.
fn best_follow(v: &View, moves: &[Move], need: i32, bonus: i32, urgent: bool) -> Option<Move> {
    if moves.is_empty() {
        return None;
    }
    let level = v.level;
    let plan = v.plan();
    let (cost, groups) = (plan.cost, plan.groups());
    let key = |m: &Move, gain: i32, boss: bool| FollowKey(urgent && !boss, -gain, m.combo.value(level), m.wild);
    let mut best: Option<(FollowKey, usize)> = None;
    let mut others: SmallVec<[(FollowKey, usize, bool); 32]> = SmallVec::new();
    for (i, m) in moves.iter().enumerate() {
        if m.combo.kind.is_bomb() {
            continue;
        }
        let boss = v.is_boss(m);
        let extra = if boss { bonus } else { 0 };
        let mc = Counts::of_play(m.cards, level);
        match plan.position(mc).map(|j| &groups[j]) {
            Some(g) => {
                let gain = g.cost as i32 + extra;
                let k = key(m, gain, boss);
                if gain >= need && best.is_none_or(|(b, _)| k < b) {
                    best = Some((k, i));
                }
            }
            None => {
                // At most what it costs as a play comes off the hand's cost.
                let bound = value().play(m.combo.kind, m.combo.rank, m.combo.size, level) as i32 + extra;
                if bound >= need {
                    others.push((key(m, bound, boss), i, boss));
                }
            }
        }
    }
    others.sort_unstable();
    // How many plays outside the plan a playout's follow may search (all by default).
    let tries = param("follow_tries", -1);
    let tries = if tries >= 0 && playout_plans::open() { tries as usize } else { usize::MAX };
    for (n, &(low, i, boss)) in others.iter().enumerate() {
        if n >= tries || best.is_some_and(|(b, _)| low >= b) {
            break;
        }
        let m = &moves[i];
        let gain = cost - hand_cost_after(v.counts, Counts::of_play(m.cards, level), level, value()) + if boss { bonus } else { 0 };
        let k = key(m, gain, boss);
        if gain >= need && best.is_none_or(|(b, _)| k < b) {
            best = Some((k, i));
        }
    }
    best.map(|(_, i)| moves[i])
}

/// The tribute or return card among `options` that hurts `hand` least: the
/// one leaving the cheapest hand; a tribute then from the suit the hand
/// holds fewest of (least straight-flush potential lost), a return card of
/// the lowest rank.
pub fn tribute_choice(options: &[Action], hand: CardSet, level: u8, rules: ComboRules) -> Option<Action> {
    let counts = Counts::of(hand, level, rules);
    tribute_by(options, hand, level, |c| hand_cost_after(counts, Counts::of_play(CardSet::single(*c), level), level, value()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::card::parse_level;
    use crate::cards::card::Card;
    use crate::game::levels::LevelState;
    use crate::game::rules::Rules;
    use crate::movegen::combo::ladder_rank;
    use crate::movegen::Mode;

    fn state(hands: [&str; 4], level: &str) -> PlayState {
        let h = hands.map(|t| CardSet::parse(t).unwrap());
        PlayState::new(h, parse_level(level).unwrap(), 0, ComboRules::default())
    }

    fn ctx() -> Context {
        Context { rules: Rules::default(), levels: LevelState::new(), knowledge: Default::default() }
    }

    fn pick(s: &PlayState) -> Option<Move> {
        pick_with(s, &ctx())
    }

    fn pick_with(s: &PlayState, c: &Context) -> Option<Move> {
        let mut moves = Vec::new();
        s.moves(Mode::Pattern, &mut moves);
        choose(s, c, &moves).map(|i| moves[i])
    }

    fn play(s: &mut PlayState, c: &mut Context, cards: &str) {
        let m = crate::movegen::classify(CardSet::parse(cards).unwrap(), s.level, s.rules)[0];
        c.record(s.current, Some(&m));
        s.play(m).unwrap();
    }

    /// Whether `unseen` can make no play of `kind` above `value`, by a scan
    /// of every higher rank or run (bombs aside).
    fn boss(kind: Kind, value: u8, unseen: Counts, level: u8) -> bool {
        let (wild, small, big) = unseen.specials();
        let count = |r: u8| unseen.natural(r);
        match kind {
            Kind::Single | Kind::Pair | Kind::Triple | Kind::FullHouse => {
                let need = match kind {
                    Kind::Single => 1,
                    Kind::Pair => 2,
                    _ => 3,
                };
                (0..15u8).filter(|&r| rank_value(r, level) > value).all(|r| {
                    if r >= 13 {
                        // Jokers: no wildcard stands in; no joker triple.
                        need == 3 || [small, big][r as usize - 13] < need
                    } else if r == level {
                        count(r) + wild < need
                    } else {
                        count(r) == 0 || count(r) + wild.min(need - 1) < need
                    }
                })
            }
            Kind::Straight | Kind::Tube | Kind::Plate => {
                let (len, copies) = kind.run_shape().expect("a run");
                ((value + 1)..=(14 - len)).all(|s| {
                    let missing: u8 = (0..len).map(|q| copies.saturating_sub(count(ladder_rank(s + q)))).sum();
                    missing > wild
                })
            }
            _ => true,
        }
    }

    #[test]
    fn highest_unseen_plays_answer_as_a_scan_of_the_higher_ones() {
        let mut rng = Rng::new(21);
        let kinds = [Kind::Single, Kind::Pair, Kind::Triple, Kind::FullHouse, Kind::Straight, Kind::Tube, Kind::Plate, Kind::Bomb];
        for i in 0..3_000u32 {
            let level = (i % 13) as u8;
            let mut cards = CardSet::EMPTY;
            for _ in 0..rng.below(60) {
                let c = Card::from_index(rng.below(54) as usize).unwrap();
                let _ = cards.try_add(c);
            }
            let unseen = Unseen::new(cards, level);
            let counts = Counts::of(cards, level, ComboRules::default());
            for kind in kinds {
                for value in 0..16u8 {
                    assert_eq!(unseen.boss(kind, value), boss(kind, value, counts, level), "{cards} at {level}: {kind:?} {value}");
                }
            }
        }
    }

    /// The plan kept for `seat` holding `hand`, if any.
    fn kept_plan(seat: u8, hand: CardSet) -> Option<Plan> {
        let mut p = Plan::EMPTY;
        playout_plans::get(seat, hand, &mut p).then_some(p)
    }

    /// Whether `a` and `b` hold the same groups (in any order) and cost.
    fn same_plan(a: &Plan, b: &Plan) -> bool {
        let count = |p: &Plan, g: &Group| p.groups().iter().filter(|h| *h == g).count();
        a.cost == b.cost && a.groups().len() == b.groups().len() && a.groups().iter().all(|g| count(a, g) == count(b, g))
    }

    /// Deals of four rule players with plans kept as in a playout: every
    /// kept plan holds the groups of the plan found afresh, and every
    /// decision (about 10^5 of them) is the one taken with fresh plans.
    #[test]
    fn playout_plans_decide_as_fresh_ones() {
        let (mut decisions, mut kept) = (0, 0);
        for seed in 0..1_500u64 {
            let mut rng = Rng::new(seed);
            let hands = crate::cards::deck::deal(&mut rng);
            let mut s = PlayState::new(hands, (seed % 13) as u8, (seed % 4) as u8, ComboRules::default());
            let mut c = ctx();
            let _scope = playout_plans::Playout::enter(true);
            let mut moves = Vec::new();
            while !s.over {
                moves.clear();
                s.moves(Mode::Pattern, &mut moves);
                let seat = s.current;
                let hand = s.hands[seat as usize];
                let fresh = {
                    let _off = playout_plans::Suspend::enter();
                    choose(&s, &c, &moves)
                };
                if let Some(p) = kept_plan(seat, hand) {
                    let f = plan(Counts::of(hand, s.level, s.rules), s.level, value());
                    assert!(same_plan(&p, &f), "seed {seed}: {hand} kept {:?} fresh {:?}", p.groups(), f.groups());
                    kept += 1;
                }
                let choice = choose(&s, &c, &moves);
                assert_eq!(choice, fresh, "seed {seed}: {hand}");
                decisions += 1;
                let m = choice.map(|i| moves[i]);
                c.record(seat, m.as_ref());
                match m {
                    Some(m) => s.play(m).unwrap(),
                    None => s.pass().unwrap(),
                }
            }
        }
        assert!(decisions > 100_000 && kept > 30_000, "{decisions} decisions, {kept} with a kept plan");
    }

    /// Random deals, both listing modes, in a playout's scope: the play
    /// `pick` finds listing only the families it looks at (with the plans
    /// kept through the playout) is the one `choose` picks from the whole
    /// list with a fresh plan, at every decision; half the moves random, so
    /// that positions vary beyond the policy's own.
    #[test]
    fn pick_is_choose_on_the_listed_plays() {
        let (mut decisions, mut passes) = (0, 0);
        let (mut moves, mut buf) = (Vec::new(), Vec::new());
        for seed in 0..600u64 {
            let mut rng = Rng::new(seed);
            let hands = crate::cards::deck::deal(&mut rng);
            let mode = if seed % 3 == 0 { Mode::Cards } else { Mode::Pattern };
            let mut s = PlayState::new(hands, (seed % 13) as u8, (seed % 4) as u8, ComboRules::default());
            let mut c = ctx();
            let _scope = playout_plans::Playout::enter(true);
            while !s.over {
                moves.clear();
                s.moves(mode, &mut moves);
                let listed = {
                    let _off = playout_plans::Suspend::enter();
                    choose(&s, &c, &moves).map(|i| moves[i])
                };
                let picked = super::pick(&s, &c, mode, &mut buf);
                assert_eq!(picked, listed, "seed {seed}: {} after {:?}", s.hands[s.current as usize], s.top);
                decisions += 1;
                passes += picked.is_none() as u32;
                let k = rng.below(moves.len() as u32 + s.can_pass() as u32) as usize;
                let m = if rng.below(2) == 0 { picked } else { moves.get(k).copied() };
                let m = if m.is_none() && !s.can_pass() { Some(moves[0]) } else { m };
                c.record(s.current, m.as_ref());
                match m {
                    Some(m) => s.play_unchecked(m),
                    None => s.pass_unchecked(),
                }
            }
        }
        assert!(decisions > 40_000 && passes > 10_000, "{decisions} decisions, {passes} passes");
    }

    /// Outside a playout's scope nothing is kept or read; a search's scope
    /// inside one hides the playout's plans, which come back after it.
    #[test]
    fn plans_are_kept_only_in_a_playout() {
        let s = state(["3s 4s 5d 6c 7h Kd Kc", "9s 9d 8s 8d 7s 7d", "Ts", "Js"], "2");
        let hand = s.hands[0];
        let p = plan(Counts::of(hand, s.level, s.rules), s.level, value());
        playout_plans::keep(0, hand, |slot| slot.copy_from(&p));
        assert!(kept_plan(0, hand).is_none());
        {
            let _scope = playout_plans::Playout::enter(true);
            playout_plans::keep(0, hand, |slot| slot.copy_from(&p));
            assert!(kept_plan(0, hand).is_some_and(|k| same_plan(&k, &p)));
            assert!(kept_plan(1, hand).is_none() && kept_plan(0, s.hands[1]).is_none());
            {
                let _off = playout_plans::Suspend::enter();
                assert!(kept_plan(0, hand).is_none());
                let _inner = playout_plans::Playout::enter(true);
                assert!(kept_plan(0, hand).is_none(), "a playout inside starts with none");
                playout_plans::keep(2, hand, |slot| slot.copy_from(&p));
            }
            assert!(kept_plan(0, hand).is_some() && kept_plan(2, hand).is_none());
            let _no = playout_plans::Playout::enter(false);
            assert!(kept_plan(0, hand).is_some(), "a chooser that keeps none leaves the scope as it is");
        }
        assert!(kept_plan(0, hand).is_none());
    }

    #[test]
    fn goes_out_at_once() {
        let s = state(["3s 4s 5d 6c 7h", "9s 9d", "Ts", "Js"], "2");
        assert_eq!(pick(&s).unwrap().cards.len(), 5);
    }

    #[test]
    fn leads_a_whole_group() {
        // 3 4 5 6 7 is one straight: leading the 3 alone would break it.
        let s = state(["3s 4s 5d 6c 7h Kd Kc", "9s 9d 8s 8d 7s 7d", "Ts", "Js"], "2");
        let m = pick(&s).unwrap();
        assert_eq!(m.combo.kind, Kind::Straight, "{m:?}");
    }

    #[test]
    fn lets_the_partner_win_and_keeps_bombs() {
        let mut s = state(["3s 9s 9d 9c 9h 5d", "5s 6d", "4s Kd", "Js Qd"], "2");
        let mut c = ctx();
        play(&mut s, &mut c, "3s");
        s.pass().unwrap(); // seat 1
        play(&mut s, &mut c, "Kd"); // seat 2, the partner of 0
        s.pass().unwrap(); // seat 3
        assert_eq!(s.current, 0);
        assert_eq!(pick_with(&s, &c), None, "no beating the partner");
    }
}
