//! The families of plays, one `MoveGen` method each, walked in the order of
//! `generate`: the seven non-bomb kinds (`ranked`: singles, pairs, triples,
//! full houses; `runs`: straights, tubes, plates), then the bombs (`bombs`:
//! same-rank bombs, straight flushes; the joker bomb is one line of the
//! walker). Each family first tells the sink how many patterns a group
//! holds, then lists them: one physical choice per pattern at pattern
//! level, the lists of card choices at card level.

mod bombs;
mod ranked;
mod runs;
