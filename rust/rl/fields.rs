//! The field tables of the two observation encodings, the one place their
//! layouts are written: each field's name, offset, length and the bounds of
//! its values (those of the environments' observation spaces). The encoders
//! of [`crate::rl::encodings`] write at these offsets, Python reads the tables
//! (`_core.observation_fields`) and docs/encodings.md lists them (a test
//! compares the page with them).

use crate::cards::card::NUM_FACES;
use crate::movegen::combo::KINDS;
use std::ops::Range;

/// One field of an encoding: `len` values from `offset`, each in `low..=high`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Field {
    pub name: &'static str,
    pub offset: usize,
    pub len: usize,
    pub low: f32,
    pub high: f32,
}

impl Field {
    /// The offset after the field's last value.
    pub const fn end(&self) -> usize {
        self.offset + self.len
    }

    /// The field's positions in a vector.
    pub const fn range(&self) -> Range<usize> {
        self.offset..self.end()
    }
}

/// The fields of `spec` (name, length, low, high) laid out one after another.
const fn laid_out<const N: usize>(spec: [(&'static str, usize, f32, f32); N]) -> [Field; N] {
    let mut out = [Field { name: "", offset: 0, len: 0, low: 0.0, high: 0.0 }; N];
    let mut offset = 0;
    let mut i = 0;
    while i < N {
        let (name, len, low, high) = spec[i];
        out[i] = Field { name, offset, len, low, high };
        offset += len;
        i += 1;
    }
    out
}

/// A field table: an enum naming each field, the table itself (in that
/// order) and the vector's size.
macro_rules! field_table {
    ($(#[$doc:meta])* $id:ident, $table:ident, $size:ident { $($(#[$vdoc:meta])* $var:ident = $name:literal, $len:expr, $low:expr, $high:expr;)* }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, Debug)]
        pub enum $id {
            $($(#[$vdoc])* $var,)*
        }

        /// The fields in order, offsets computed from the lengths.
        pub const $table: [Field; [$($name),*].len()] = laid_out([$(($name, $len, $low, $high)),*]);

        /// Values per vector.
        pub const $size: usize = $table[$table.len() - 1].end();

        impl $id {
            /// The field's entry in the table.
            pub const fn field(self) -> Field {
                $table[self as usize]
            }

            /// The field's offset.
            pub const fn at(self) -> usize {
                $table[self as usize].offset
            }
        }
    };
}

const CARDS: usize = NUM_FACES;
const RANKS: usize = 13;
/// Hand sizes are divided by this.
pub const SIZE_SCALE: f32 = 27.0;

field_table! {
    /// The fields of `encode_observation`. Seats are relative to the
    /// observer: self, next (下家), partner (对家), prev (上家).
    Obs, OBSERVATION_FIELDS, OBSERVATION_SIZE {
        Hand = "hand", CARDS, 0.0, 2.0;
        Unseen = "unseen", CARDS, 0.0, 2.0;
        PlayedSelf = "played_self", CARDS, 0.0, 2.0;
        PlayedNext = "played_next", CARDS, 0.0, 2.0;
        PlayedPartner = "played_partner", CARDS, 0.0, 2.0;
        PlayedPrev = "played_prev", CARDS, 0.0, 2.0;
        KnownNext = "known_next", CARDS, 0.0, 2.0;
        KnownPartner = "known_partner", CARDS, 0.0, 2.0;
        KnownPrev = "known_prev", CARDS, 0.0, 2.0;
        /// Sizes clipped to `SIZE_CLIP`, over `SIZE_SCALE`.
        HandSizes = "hand_sizes", 4, 0.0, 28.0 / SIZE_SCALE;
        Level = "level", RANKS, 0.0, 2.0;
        LevelOwnTeam = "level_own_team", RANKS, 0.0, 2.0;
        LevelOtherTeam = "level_other_team", RANKS, 0.0, 2.0;
        /// Counts clipped to `A_FAILS_CLIP`.
        AFails = "a_fails", 2, 0.0, 3.0;
        DeclarerOwn = "declarer_own", 1, 0.0, 2.0;
        TopCards = "top_cards", CARDS, 0.0, 2.0;
        TopKind = "top_kind", KINDS.len(), 0.0, 2.0;
        TopRank = "top_rank", 15, 0.0, 2.0;
        TopSeat = "top_seat", 4, 0.0, 2.0;
        Leading = "leading", 1, 0.0, 2.0;
        FinishOrder = "finish_order", 16, 0.0, 2.0;
        TributeCaps = "tribute_caps", 4, 0.0, 2.0;
    }
}

field_table! {
    /// The fields of `danzero_state`. Seats: down (seat + 1), partner, up (seat + 3).
    DanZero, DANZERO_FIELDS, DANZERO_SIZE {
        Hand = "hand", CARDS, -1.0, 2.0;
        WildcardFlags = "wildcard_flags", 12, -1.0, 2.0;
        Unseen = "unseen", CARDS, -1.0, 2.0;
        LastMove = "last_move", CARDS, -1.0, 2.0;
        PartnerLastMove = "partner_last_move", CARDS, -1.0, 2.0;
        PlayedDown = "played_down", CARDS, -1.0, 2.0;
        PlayedPartner = "played_partner", CARDS, -1.0, 2.0;
        PlayedUp = "played_up", CARDS, -1.0, 2.0;
        SizeDown = "size_down", 28, -1.0, 2.0;
        SizePartner = "size_partner", 28, -1.0, 2.0;
        SizeUp = "size_up", 28, -1.0, 2.0;
        LevelOwnTeam = "level_own_team", RANKS, -1.0, 2.0;
        LevelOtherTeam = "level_other_team", RANKS, -1.0, 2.0;
        Level = "level", RANKS, -1.0, 2.0;
    }
}

/// The candidate action's cards (counts), after the 513 values of the state
/// in a `danzero_actions` row: the input of DanZero's Q network.
pub const DANZERO_ACTION: Field = Field { name: "action", offset: DANZERO_SIZE, len: CARDS, low: 0.0, high: 2.0 };

/// Values per `danzero_actions` row (567).
pub const DANZERO_ROW_SIZE: usize = DANZERO_ACTION.end();

/// The fields of a `danzero_actions` row: those of `danzero_state`, then `action`.
pub fn danzero_row_fields() -> Vec<Field> {
    DANZERO_FIELDS.iter().copied().chain([DANZERO_ACTION]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_contiguous_with_unique_names() {
        for table in [&OBSERVATION_FIELDS[..], &DANZERO_FIELDS[..]] {
            let mut at = 0;
            let mut names = std::collections::HashSet::new();
            for f in table {
                assert_eq!(f.offset, at, "{}", f.name);
                assert!(names.insert(f.name), "{} twice", f.name);
                assert!(f.low < f.high && f.len > 0);
                at = f.end();
            }
        }
        assert_eq!((OBSERVATION_SIZE, DANZERO_SIZE), (636, 513));
        assert_eq!(Obs::TributeCaps.field().range(), 632..636);
        assert_eq!(DanZero::Level.at(), 500);
        assert_eq!(DANZERO_ROW_SIZE, 567);
    }
}
