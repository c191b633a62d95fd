//! The legal actions of a game or an observation as indices of the action
//! space, with their masks and 54-count rows.

use crate::cards::card::NUM_FACES;
use crate::cards::cardset::CardSet;
use crate::game::observe::Observation;
use crate::game::trick::PlayState;
use crate::game::{tribute, Action, Game, Phase};
use crate::movegen::arrays::fill_counts;
use crate::movegen::{Mode, Move};
use crate::rl::action_space::{action_index, listed_play_index, PASS_INDEX, SIZE};
use std::ops::ControlFlow;

/// The legal actions of one decision with their indices; reused between
/// decisions so that a warm set does not allocate.
#[derive(Clone, Debug, Default)]
pub struct LegalSet {
    moves: Vec<Move>,
    actions: Vec<Action>,
    indices: Vec<u16>,
}

impl LegalSet {
    /// An empty set.
    pub fn new() -> LegalSet {
        LegalSet::default()
    }

    /// The legal actions of the seat to act in `g` (none between deals).
    pub fn fill_game(&mut self, g: &Game) {
        if g.phase == Phase::Play {
            return self.fill_plays(&g.play, g.level());
        }
        g.legal_actions_into(Mode::Pattern, &mut self.moves, &mut self.actions);
        self.index_all(g.level());
    }

    /// The legal actions of the observer when it is the seat to act (none
    /// otherwise): plays, passing, tribute and return choices.
    pub fn fill_observation(&mut self, o: &Observation) {
        let acts = o.current == Some(o.seat);
        if acts && o.phase == Phase::Play {
            let mut hands = [CardSet::EMPTY; 4];
            hands[o.seat as usize] = o.hand;
            return self.fill_plays(&o.play_state(hands), o.level);
        }
        self.actions.clear();
        if acts {
            match o.phase {
                Phase::Tribute => self.actions.extend(tribute::tribute_options(o.hand, o.level).into_iter().map(Action::Tribute)),
                Phase::Return => self.actions.extend(tribute::return_options(o.hand, o.level, &o.rules).into_iter().map(Action::Return)),
                _ => {}
            }
        }
        self.index_all(o.level);
    }

    /// The plays of the seat to move in `p` at `level`, passing first when
    /// it may (the order of `Game::legal_actions_into`), listed and indexed
    /// in one pass.
    fn fill_plays(&mut self, p: &PlayState, level: u8) {
        self.actions.clear();
        self.indices.clear();
        if p.can_pass() {
            self.actions.push(Action::Pass);
            self.indices.push(PASS_INDEX as u16);
        }
        if p.over {
            return;
        }
        let (actions, indices) = (&mut self.actions, &mut self.indices);
        p.move_gen().visit(Mode::Pattern, &mut |m: Move| {
            actions.push(Action::Play(m));
            indices.push(listed_play_index(&m, level).expect("every legal play has an index") as u16);
            ControlFlow::Continue(())
        });
    }

    fn index_all(&mut self, level: u8) {
        self.indices.clear();
        self.indices.extend(self.actions.iter().map(|a| action_index(a, level).expect("every legal action has an index") as u16));
    }

    /// Number of legal actions.
    pub fn len(&self) -> usize {
        self.actions.len()
    }

    /// Whether no action is legal.
    pub fn is_empty(&self) -> bool {
        self.actions.is_empty()
    }

    /// The legal actions, in the generator's order.
    pub fn actions(&self) -> &[Action] {
        &self.actions
    }

    /// Their indices, in the same order.
    pub fn indices(&self) -> &[u16] {
        &self.indices
    }

    /// The legal action of index `i`, if it is legal.
    pub fn find(&self, i: usize) -> Option<Action> {
        self.indices.iter().position(|&x| x as usize == i).map(|k| self.actions[k])
    }

    /// Sets the entries of the legal actions in `mask` (of `SIZE` entries) to 1.
    pub fn set_mask(&self, mask: &mut [u8]) {
        debug_assert_eq!(mask.len(), SIZE);
        for &i in &self.indices {
            mask[i as usize] = 1;
        }
    }

    /// Sets the entries `set_mask` set back to 0.
    pub fn clear_mask(&self, mask: &mut [u8]) {
        for &i in &self.indices {
            mask[i as usize] = 0;
        }
    }

    /// The legal actions sorted by index: each index with the cards the
    /// action gives up (a tribute or return its one card, none for passing).
    pub fn sorted(&self) -> Vec<(u16, CardSet)> {
        let mut out: Vec<(u16, CardSet)> = self.indices.iter().zip(&self.actions).map(|(&i, a)| (i, given_up(a))).collect();
        out.sort_by_key(|&(i, _)| i);
        out
    }

    /// The legal actions sorted by index: the indices and, per action, the
    /// 54 card counts it gives up (as `sorted`) appended to `cards`.
    pub fn rows(&self, index: &mut Vec<i64>, cards: &mut Vec<u8>) {
        index.clear();
        cards.clear();
        for (i, c) in self.sorted() {
            index.push(i as i64);
            let start = cards.len();
            cards.resize(start + NUM_FACES, 0);
            fill_counts(&mut cards[start..], c);
        }
    }
}

/// The cards an action gives up: a play's cards, a tribute's or return's one card, none for passing.
pub fn given_up(a: &Action) -> CardSet {
    match *a {
        Action::Play(m) => m.cards,
        Action::Tribute(c) | Action::Return(c) => CardSet::single(c),
        Action::Pass => CardSet::EMPTY,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rules::Rules;
    use crate::rng::Rng;

    /// Plays random games through tribute and return: the observation of the
    /// seat to act lists the same actions and indices as the game, and the
    /// game's actions are its own `legal_actions_into`, in that order.
    #[test]
    fn observation_and_game_agree() {
        let mut rng = Rng::new(3);
        let (mut a, mut b) = (LegalSet::new(), LegalSet::new());
        let mut phases = std::collections::HashSet::new();
        for seed in 0..40u64 {
            let mut g = Game::new(Rules::default(), seed).unwrap();
            for _ in 0..2000 {
                if g.phase == Phase::MatchOver {
                    break;
                }
                if !g.phase.is_live() {
                    g.next_deal(None, None).unwrap();
                    continue;
                }
                phases.insert(g.phase);
                a.fill_game(&g);
                b.fill_observation(&g.observation(g.current_player().unwrap()));
                let (mut buf, mut listed) = (Vec::new(), Vec::new());
                g.legal_actions_into(Mode::Pattern, &mut buf, &mut listed);
                assert_eq!(a.actions(), &listed[..], "the game's own list, in its order");
                assert_eq!(a.actions(), b.actions());
                assert_eq!(a.indices(), b.indices());
                let k = rng.below(a.len() as u32) as usize;
                assert_eq!(a.find(a.indices()[k] as usize), Some(a.actions()[k]));
                g.apply(a.actions()[k]).unwrap();
            }
        }
        assert!(phases.contains(&Phase::Tribute) && phases.contains(&Phase::Return));
    }
}
