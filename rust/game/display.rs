//! A readable Unicode table of a game: `Display` for `Game`.

use crate::cards::card::{rank_text, RANK_CHARS};
use crate::cards::cardset::CardSet;
use crate::game::{Game, Phase};
use crate::movegen::combo::rank_value;
use std::fmt;

const SEAT_NAMES: [&str; 4] = ["S0", "S1", "S2", "S3"];

/// `c` from weakest to strongest at `level`, with suit symbols.
pub fn pretty(c: CardSet, level: u8) -> String {
    let mut v = c.cards();
    v.sort_by_key(|x| (rank_value(x.rank(), level), x.index()));
    v.iter()
        .map(|x| match x.suit() {
            None => x.to_string(),
            Some(s) => format!("{}{}", RANK_CHARS[x.rank() as usize], ['♥', '♠', '♣', '♦'][s as usize]),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

impl fmt::Display for Game {
    /// The game, levels and phase, every hand, and the play to beat.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = &self.play;
        writeln!(
            f,
            "Guandan — game {}, deal {}, level {} — levels {}:{} — phase {}",
            self.game_number + 1,
            self.deal_number + 1 - matches!(self.phase, Phase::DealOver | Phase::GameOver | Phase::MatchOver) as u32,
            rank_text(p.level),
            rank_text(self.levels.levels[0]),
            rank_text(self.levels.levels[1]),
            self.phase.name()
        )?;
        for seat in 0..4u8 {
            let mark = if self.current_player() == Some(seat) { "▶" } else { " " };
            let out = p.finish[..p.n_out as usize].iter().position(|&x| x == seat).map_or(String::new(), |i| format!(" (out #{})", i + 1));
            writeln!(
                f,
                "{mark} {} team {} [{:>2}]{}: {}",
                SEAT_NAMES[seat as usize],
                seat % 2,
                p.hands[seat as usize].len(),
                out,
                pretty(p.hands[seat as usize], p.level)
            )?;
        }
        if let Some(t) = p.top {
            writeln!(f, "  to beat: {} by {} ({})", pretty(t.cards, p.level), SEAT_NAMES[p.top_seat as usize], t.combo)?;
        }
        Ok(())
    }
}
