//! The one error type of the core; the bindings map each variant to a Python exception.

use std::fmt;

/// Everything that can be wrong with input given to the core.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// Text that is not a card.
    InvalidCard(String),
    /// A third copy of a card (two decks: at most two of each face).
    DuplicateCard(String),
    /// A level that is not a rank 2..A.
    InvalidLevel(String),
    /// Cards or a declaration that do not form the combination claimed.
    InvalidCombo(String),
    /// Cards that are not in the hand they are played from.
    CardsNotInHand(String),
    /// A move the rules do not allow in this position.
    IllegalMove(String),
    /// An impossible rules option.
    InvalidRules(String),
    /// A position that cannot arise or be set up (bad hands, bad position string).
    InvalidState(String),
    /// Constraints on hidden cards that no deal satisfies.
    Unsatisfiable(String),
    /// An argument outside what a function accepts (a count too large for memory).
    InvalidArgument(String),
}

impl Error {
    /// The message.
    fn message_mut(&mut self) -> &mut String {
        match self {
            Error::InvalidCard(m)
            | Error::DuplicateCard(m)
            | Error::InvalidLevel(m)
            | Error::InvalidCombo(m)
            | Error::CardsNotInHand(m)
            | Error::IllegalMove(m)
            | Error::InvalidRules(m)
            | Error::InvalidState(m)
            | Error::Unsatisfiable(m)
            | Error::InvalidArgument(m) => m,
        }
    }

    /// The same error with `what: ` before its message.
    pub fn context(mut self, what: &str) -> Error {
        let m = self.message_mut();
        *m = format!("{what}: {m}");
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.clone().message_mut())
    }
}

impl std::error::Error for Error {}

/// Result with the core's error.
pub type Result<T> = std::result::Result<T, Error>;
