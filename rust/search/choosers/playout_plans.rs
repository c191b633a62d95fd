//! Plans kept through a playout: when the rule policy plays a group of its
//! hand's plan, the plan less that group is the plan of the hand left (its
//! cost is the least by the same argument as a search's: a cheaper plan of
//! the rest plus the group would be a cheaper plan of the whole), so the
//! seat's next decision in the same playout need not search for it.
//!
//! The plan a search walks afresh (the first cheapest play of each state
//! in its order) holds the same groups as the kept one in every case
//! tested (`rule_based`'s tests compare them, and every decision, over
//! more than 10^5 positions); the walk gives no proof of it, which is why
//! kept plans are read only inside a playout's own scope: a playout opens
//! one (`Playout`), a search inside it closes it for what it decides
//! (`Suspend`), and a playout inside that search keeps its own plans apart
//! from the outer playout's. A seat's kept plan is used only for the very
//! hand it was kept for.

use crate::cards::cardset::CardSet;
use crate::movegen::decompose::Plan;
use std::cell::RefCell;

/// What a thread keeps: whether a playout's scope is open, and per seat
/// the hand left after its last play of a plan's group with that plan.
#[derive(Clone, Copy)]
struct Kept {
    open: bool,
    seats: [(CardSet, Plan); 4],
}

/// A hand no seat holds (more than two copies of every card), for an empty seat.
const NO_HAND: CardSet = CardSet(u128::MAX);

const EMPTY: Kept = Kept { open: false, seats: [(NO_HAND, Plan::EMPTY); 4] };

thread_local! {
    static KEPT: RefCell<Kept> = const { RefCell::new(EMPTY) };
}

/// Copies into `out` the plan kept for `seat` holding `hand`, in an open
/// playout's scope; whether there was one.
#[inline]
pub fn get(seat: u8, hand: CardSet, out: &mut Plan) -> bool {
    KEPT.with(|k| {
        let k = k.borrow();
        let (h, p) = &k.seats[seat as usize & 3];
        let hit = k.open && *h == hand;
        if hit {
            out.copy_from(p);
        }
        hit
    })
}

/// Keeps the plan `fill` writes as the plan of `hand`, `seat`'s hand after
/// its play, in an open playout's scope (nothing otherwise).
#[inline]
pub fn keep(seat: u8, hand: CardSet, fill: impl FnOnce(&mut Plan)) {
    KEPT.with(|k| {
        let mut k = k.borrow_mut();
        if k.open {
            let slot = &mut k.seats[seat as usize & 3];
            slot.0 = hand;
            fill(&mut slot.1);
        }
    });
}

/// Whether plans may be kept now (an open playout's scope).
#[inline]
pub fn open() -> bool {
    KEPT.with(|k| k.borrow().open)
}

/// A playout's scope: plans kept in it, none from outside; on drop, the
/// thread's kept plans as they were before.
pub struct Playout(Option<Kept>);

impl Playout {
    /// Opens a scope when `keeps` (the playout's chooser keeps plans), else does nothing.
    #[inline]
    pub fn enter(keeps: bool) -> Playout {
        if !keeps {
            return Playout(None);
        }
        Playout(Some(KEPT.with(|k| std::mem::replace(&mut *k.borrow_mut(), Kept { open: true, ..EMPTY }))))
    }
}

impl Drop for Playout {
    #[inline]
    fn drop(&mut self) {
        if let Some(before) = self.0.take() {
            KEPT.with(|k| *k.borrow_mut() = before);
        }
    }
}

/// A search's scope: no plan is kept or read in it (outside the playouts it
/// runs, which open their own); on drop, the scope around it as it was.
pub struct Suspend(bool);

impl Suspend {
    #[inline]
    pub fn enter() -> Suspend {
        Suspend(KEPT.with(|k| std::mem::replace(&mut k.borrow_mut().open, false)))
    }
}

impl Drop for Suspend {
    #[inline]
    fn drop(&mut self) {
        let open = self.0;
        KEPT.with(|k| k.borrow_mut().open = open);
    }
}
