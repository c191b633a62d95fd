//! What one play of a decomposition costs (`Costs`): a play each for the
//! fewest plays, or the rule policy's hand value.

use crate::movegen::combo::{rank_value, run_position, Kind};

/// What one play of a decomposition costs, in hundredths of a play: a play
/// less what its strength is worth (a strong single or pair can take a
/// trick back, a bomb takes any). `PLAYS` counts plays (最少手数); `VALUE`
/// is the rule policy's hand value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Costs {
    /// Singles and pairs by rank value (docs/rules.md §2: 0 = 2, …, 12 = A,
    /// 13 the level, 14 small joker, 15 big joker).
    pub single: [i16; 16],
    pub pair: [i16; 16],
    /// Triples, alone or with a pair (a full house), by rank value (0..=13).
    pub triple: [i16; 14],
    /// Same-rank bombs by size (index 4..=10).
    pub bomb: [i16; 11],
    /// Runs by position (0 = the A-low one).
    pub straight: [i16; 10],
    pub tube: [i16; 12],
    pub plate: [i16; 13],
    pub joker_bomb: i16,
}

impl Costs {
    /// What a play of `kind`, `rank` (of the triple for a full house, the
    /// lowest on the ladder for a run) and `size` costs at `level` (a
    /// straight flush as the straight it also is).
    pub fn play(&self, kind: Kind, rank: u8, size: u8, level: u8) -> i16 {
        let v = rank_value(rank, level) as usize;
        let pos = run_position(rank) as usize;
        match kind {
            Kind::Single => self.single[v],
            Kind::Pair => self.pair[v],
            Kind::Triple | Kind::FullHouse => self.triple[v],
            Kind::Straight | Kind::StraightFlush => self.straight[pos],
            Kind::Tube => self.tube[pos],
            Kind::Plate => self.plate[pos],
            Kind::Bomb => self.bomb[size as usize],
            Kind::JokerBomb => self.joker_bomb,
        }
    }

    /// How many entries a table holds (`slots`).
    pub const SLOTS: usize = 93;

    /// The table's entries in its fields' order (singles, pairs, triples,
    /// bombs, straights, tubes, plates, the joker bomb).
    pub fn slots(&self) -> Vec<i16> {
        let parts: [&[i16]; 7] = [&self.single, &self.pair, &self.triple, &self.bomb, &self.straight, &self.tube, &self.plate];
        let mut v: Vec<i16> = parts.concat();
        v.push(self.joker_bomb);
        v
    }

    /// The table whose entries in its fields' order are `slots`; `None`
    /// unless there are exactly [`Costs::SLOTS`].
    pub fn from_slots(slots: &[i16]) -> Option<Costs> {
        if slots.len() != Self::SLOTS {
            return None;
        }
        let mut c = Costs::PLAYS;
        let mut it = slots.iter().copied();
        let parts: [&mut [i16]; 7] = [&mut c.single, &mut c.pair, &mut c.triple, &mut c.bomb, &mut c.straight, &mut c.tube, &mut c.plate];
        for slot in parts.into_iter().flatten() {
            *slot = it.next()?;
        }
        c.joker_bomb = it.next()?;
        Some(c)
    }

    /// Every play costs one play: the decomposition with the fewest plays.
    pub const PLAYS: Costs = Costs {
        single: [100; 16],
        pair: [100; 16],
        triple: [100; 14],
        bomb: [100; 11],
        straight: [100; 10],
        tube: [100; 12],
        plate: [100; 13],
        joker_bomb: 100,
    };
}
