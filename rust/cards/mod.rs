//! Cards and card sets: faces, text, the packed two-deck `CardSet`, dealing.

pub mod card;
pub mod cardset;
pub mod deck;

pub use card::Card;
pub use cardset::CardSet;
