//! Webster (Sainte-Laguë) seat allocation with Karmada's tie-break
//! (`pkg/util/helper/webstermethod.go AllocateWebsterSeats`, `binding.go Dispenser`).
//!
//! Each seat goes to the party with the largest `votes / (2·seats + 1)`, compared as float64
//! like upstream (`2·seats + 1` in int32, as upstream computes it). On a tie the party with
//! fewer seats wins, then the name: ascending, or descending when the FNV-1a hash of the
//! resource UID is odd.
//!
//! Upstream hands the seats out one at a time; so does fleetplan for the first seats of
//! `explain` and whenever there are few per party, but 2,147,483,647 replicas one at a time
//! take half a minute: beyond that the seats are divided in closed form, exactly as one at a
//! time would (see [`bulk`]; a property test holds the two to the same seats).

use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// Which way equal parties are ordered by name (`tieBreakerByUID`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TieBreak {
    NameAscending,
    NameDescending,
}

impl TieBreak {
    /// An empty UID, or an even FNV-1a (32-bit) hash, breaks ties by ascending name.
    pub(crate) fn for_uid(uid: &str) -> TieBreak {
        if !uid.is_empty() && fnv32a(uid.as_bytes()) & 1 == 1 {
            TieBreak::NameDescending
        } else {
            TieBreak::NameAscending
        }
    }
}

/// FNV-1a, 32 bits (Go's `hash/fnv.New32a`).
pub(crate) fn fnv32a(bytes: &[u8]) -> u32 {
    let mut hash: u32 = 0x811c_9dc5;
    for byte in bytes {
        hash ^= u32::from(*byte);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    hash
}

/// One party: a cluster (by any key that orders as its name) with its votes (weight) and
/// seats (replicas).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Party<K> {
    pub key: K,
    pub votes: i64,
    pub seats: i64,
}

/// One seat handed out, for `explain`.
#[derive(Clone, Debug, PartialEq)]
pub struct Round<K> {
    pub party: K,
    /// The winning priority `votes / (2·seats + 1)` before the seat.
    pub priority: f64,
    /// Seats the party had before this one.
    pub seats_before: i64,
}

/// A party in the queue: its priority computed once per seat, not per comparison, and its
/// place in key order, where its seats go back at the end.
struct Ranked<K> {
    priority: f64,
    seats: i64,
    votes: i64,
    key: K,
    position: usize,
    tie_break: TieBreak,
}

impl<K> Ranked<K> {
    fn new(party: &Party<K>, position: usize, tie_break: TieBreak) -> Ranked<K>
    where
        K: Copy,
    {
        Ranked {
            priority: priority(party.votes, party.seats),
            seats: party.seats,
            votes: party.votes,
            key: party.key,
            position,
            tie_break,
        }
    }

    fn seat(&mut self) {
        self.seats += 1;
        self.priority = priority(self.votes, self.seats);
    }
}

/// Go: `float64(Votes) / float64(2*Seats+1)` with `Seats` an int32: from 2^30 seats the
/// denominator wraps negative, and the party's priority with it, as upstream's does.
fn priority(votes: i64, seats: i64) -> f64 {
    let denominator = (seats as i32).wrapping_mul(2).wrapping_add(1);
    votes as f64 / f64::from(denominator)
}

/// Fewer seats than this per party are handed out one at a time; more are divided in closed
/// form first ([`bulk`]), which costs about 2,000 priority evaluations per party.
const SEATS_PER_PARTY_ONE_BY_ONE: i64 = 64;

/// The seats the heap hands out one at a time after [`bulk`] (at most one per party).
fn one_by_one<K: Ord + Copy>(
    heap: &mut BinaryHeap<Ranked<K>>,
    seats: i64,
    mut rounds: Option<&mut Vec<Round<K>>>,
) {
    for _ in 0..seats.max(0) {
        let Some(mut next) = heap.peek_mut() else {
            break;
        };
        if let Some(rounds) = rounds.as_deref_mut() {
            rounds.push(Round {
                party: next.key,
                priority: next.priority,
                seats_before: next.seats,
            });
        }
        // Sifted down when `next` goes out of scope (`PeekMut`).
        next.seat();
    }
}

/// Hands out most of `seats` at once, exactly as one by one would, and returns how many are
/// left to hand out one by one (fewer than the parties), or `None` where the closed form does
/// not hold (a negative vote, or seats past int32, where upstream's priorities stop falling).
///
/// Why it is exact: for a party with votes ≥ 0, its seat-by-seat keys (priority, then fewer
/// seats first) strictly fall with every seat, also across the int32 wrap (priorities go from
/// ≥ 0 to ≤ 0). The seat-by-seat method always takes the largest key among the parties' next
/// ones, so it hands out the `seats` largest keys of all the parties' sequences. Every key
/// whose priority is above the threshold `p` — the smallest priority that leaves at most
/// `seats` keys above it — is among them: those go at once. The rest (keys of priority
/// exactly `p`) go one by one from there. A priority other than 0 is met by at most one key
/// per party (two seats of one party differ by ≥ 2^-30 relatively, far above float64's
/// rounding), so fewer seats than parties are left; priority 0 belongs to parties without
/// votes, whose keys level their seats up, so those are levelled in closed form first.
fn bulk<K>(parties: &mut [Ranked<K>], seats: i64) -> Option<i64> {
    let highest = parties.iter().map(|party| party.seats).max()?;
    if parties.iter().any(|party| party.votes < 0)
        || highest.checked_add(seats)? > i64::from(i32::MAX)
    {
        return None;
    }
    let threshold = threshold(parties, seats);
    let mut left = seats;
    for party in parties.iter_mut() {
        let above = above(party, seats, threshold);
        party.seats += above;
        left -= above;
    }
    if threshold == 0.0 {
        left = level(parties, left);
    }
    for party in parties.iter_mut() {
        party.priority = priority(party.votes, party.seats);
    }
    Some(left)
}

/// How many of `party`'s next `limit` seats have a priority above `threshold`: its priorities
/// fall seat by seat, so the first one at or below it is found by bisection.
fn above<K>(party: &Ranked<K>, limit: i64, threshold: f64) -> i64 {
    let (mut low, mut high) = (0, limit);
    while low < high {
        let middle = low + (high - low) / 2;
        if priority(party.votes, party.seats + middle) > threshold {
            low = middle + 1;
        } else {
            high = middle;
        }
    }
    low
}

/// The smallest priority that leaves at most `seats` seats of the parties above it, found by
/// bisection over float64's total order (the order of its bits, negatives flipped).
fn threshold<K>(parties: &[Ranked<K>], seats: i64) -> f64 {
    let ordered = |value: f64| {
        let bits = value.to_bits();
        if bits >> 63 == 0 {
            bits | 1 << 63
        } else {
            !bits
        }
    };
    let value = |key: u64| {
        f64::from_bits(if key >> 63 == 1 {
            key & !(1 << 63)
        } else {
            !key
        })
    };
    let fits = |key: u64| {
        let mut total: i64 = 0;
        for party in parties {
            total = total.saturating_add(above(party, seats, value(key)));
            if total > seats {
                return false;
            }
        }
        true
    };
    let (mut low, mut high) = (ordered(f64::NEG_INFINITY), ordered(f64::INFINITY));
    while low < high {
        let middle = low + (high - low) / 2;
        if fits(middle) {
            high = middle;
        } else {
            low = middle + 1;
        }
    }
    value(low)
}

/// Levels the seats of the parties without votes (priority 0 whatever their seats, so fewer
/// seats first) up to the highest level `left` seats reach; returns the seats left over,
/// fewer than the parties at that level.
fn level<K>(parties: &mut [Ranked<K>], left: i64) -> i64 {
    let needed = |parties: &[Ranked<K>], level: i64| -> i64 {
        parties
            .iter()
            .filter(|party| party.votes == 0)
            .map(|party| (level - party.seats).max(0))
            .fold(0i64, i64::saturating_add)
    };
    let Some(lowest) = parties
        .iter()
        .filter(|party| party.votes == 0)
        .map(|party| party.seats)
        .min()
    else {
        return left;
    };
    let (mut low, mut high) = (lowest, lowest.saturating_add(left));
    while low < high {
        let middle = low + (high - low + 1) / 2;
        if needed(parties, middle) <= left {
            low = middle;
        } else {
            high = middle - 1;
        }
    }
    let used = needed(parties, low);
    for party in parties.iter_mut().filter(|party| party.votes == 0) {
        party.seats = party.seats.max(low);
    }
    left - used
}

impl<K: Ord> PartialEq for Ranked<K> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl<K: Ord> Eq for Ranked<K> {}

impl<K: Ord> PartialOrd for Ranked<K> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<K: Ord> Ord for Ranked<K> {
    /// Greater = gets the next seat first (`WebsterPriorityQueue.Less` with the tie-breaker).
    fn cmp(&self, other: &Self) -> Ordering {
        let (mine, theirs) = (self.priority, other.priority);
        if mine != theirs {
            return mine.partial_cmp(&theirs).unwrap_or(Ordering::Equal);
        }
        if self.seats != other.seats {
            return other.seats.cmp(&self.seats);
        }
        match self.tie_break {
            TieBreak::NameAscending => other.key.cmp(&self.key),
            TieBreak::NameDescending => self.key.cmp(&other.key),
        }
    }
}

/// `explain` records this many seats at most: the first ones, one at a time.
pub(crate) const ROUNDS_RECORDED: usize = 50;

/// `AllocateWebsterSeats`: hands `new_seats` out over `votes`, starting from `initial`
/// (a party only in `initial` keeps its seats with 0 votes). Both lists are in strictly
/// ascending key order, and a key orders as the party's name (a name, or a cluster's rank in
/// the fleet's name order: the caller picks, so a division of thousands of clusters compares
/// integers). Parties come back in key order; `rounds` records the first
/// [`ROUNDS_RECORDED`] seats when asked.
pub(crate) fn allocate<K: Ord + Copy>(
    new_seats: i64,
    votes: &[(K, i64)],
    initial: &[(K, i64)],
    tie_break: TieBreak,
    rounds: Option<&mut Vec<Round<K>>>,
) -> Vec<Party<K>> {
    let mut parties = merge(votes, initial);
    let mut heap = queue(&parties, tie_break);
    let mut left = new_seats.max(0);
    if rounds.is_some() {
        let recorded = left.min(ROUNDS_RECORDED as i64);
        one_by_one(&mut heap, recorded, rounds);
        left -= recorded;
    }
    let party_count = i64::try_from(heap.len()).unwrap_or(i64::MAX);
    if left > party_count.saturating_mul(SEATS_PER_PARTY_ONE_BY_ONE) {
        let mut ranked = heap.into_vec();
        if let Some(rest) = bulk(&mut ranked, left) {
            left = rest;
        }
        heap = BinaryHeap::from(ranked);
    }
    one_by_one(&mut heap, left, None);
    seated(&mut parties, heap);
    parties
}

/// Every party once, in key order: the votes and the initial seats merged.
fn merge<K: Ord + Copy>(votes: &[(K, i64)], initial: &[(K, i64)]) -> Vec<Party<K>> {
    debug_assert!(votes.windows(2).all(|pair| pair[0].0 < pair[1].0));
    debug_assert!(initial.windows(2).all(|pair| pair[0].0 < pair[1].0));
    // One merge lists every party once, in key order, and a party's place in that order puts
    // the result back in it without comparing keys.
    let mut parties: Vec<Party<K>> = Vec::with_capacity(votes.len() + initial.len());
    let (mut votes, mut initial) = (votes.iter().peekable(), initial.iter().peekable());
    loop {
        let order = match (votes.peek(), initial.peek()) {
            (None, None) => break,
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (Some((key, _)), Some((seated, _))) => key.cmp(seated),
        };
        let vote = if order.is_le() { votes.next() } else { None };
        let seated = if order.is_ge() { initial.next() } else { None };
        let Some(key) = vote.or(seated).map(|(key, _)| *key) else {
            break;
        };
        let party = Party {
            key,
            votes: vote.map_or(0, |(_, count)| *count),
            seats: seated.map_or(0, |(_, seats)| *seats),
        };
        parties.push(party);
    }
    parties
}

/// The parties as the priority queue ranks them, each with its place in key order.
fn queue<K: Ord + Copy>(parties: &[Party<K>], tie_break: TieBreak) -> BinaryHeap<Ranked<K>> {
    parties
        .iter()
        .enumerate()
        .map(|(position, party)| Ranked::new(party, position, tie_break))
        .collect()
}

/// The queue's seats written back to the parties, in key order.
fn seated<K: Ord>(parties: &mut [Party<K>], heap: BinaryHeap<Ranked<K>>) {
    for ranked in heap.into_vec() {
        parties[ranked.position].seats = ranked.seats;
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// Upstream's method: every seat one at a time.
    fn seat_by_seat<K: Ord + Copy>(
        new_seats: i64,
        votes: &[(K, i64)],
        initial: &[(K, i64)],
        tie_break: TieBreak,
    ) -> Vec<Party<K>> {
        let mut parties = merge(votes, initial);
        let mut heap = queue(&parties, tie_break);
        one_by_one(&mut heap, new_seats, None);
        seated(&mut parties, heap);
        parties
    }

    /// Parties 0..n: votes (some 0, some large), initial seats for some (some near the int32
    /// wrap of `2·seats + 1`), and seats enough that most of them are divided in closed form.
    /// Seats to hand out, votes, initial seats and the tie-break.
    type Division = (i64, Vec<(u32, i64)>, Vec<(u32, i64)>, TieBreak);

    fn division() -> impl Strategy<Value = Division> {
        let vote = prop_oneof![
            3 => 0i64..=1_000,
            1 => Just(0i64),
            1 => 1i64..=1_000_000_000_000,
        ];
        let seats = prop_oneof![
            3 => 0i64..=300,
            1 => (1i64 << 30) - 3_000..=(1i64 << 30) + 3_000,
        ];
        (
            proptest::collection::vec(
                (proptest::option::of(vote), proptest::option::of(seats)),
                1..=6,
            ),
            0i64..=20_000,
            any::<bool>(),
        )
            .prop_map(|(parties, new_seats, descending)| {
                let mut votes = Vec::new();
                let mut initial = Vec::new();
                for (key, (vote, seats)) in (0u32..).zip(parties) {
                    // Every party has votes or seats.
                    votes.extend(
                        vote.or(seats.is_none().then_some(1))
                            .map(|vote| (key, vote)),
                    );
                    initial.extend(seats.map(|seats| (key, seats)));
                }
                let tie_break = if descending {
                    TieBreak::NameDescending
                } else {
                    TieBreak::NameAscending
                };
                (new_seats, votes, initial, tie_break)
            })
    }

    proptest! {
        #[test]
        fn closed_form_division_is_seat_by_seat(
            (new_seats, votes, initial, tie_break) in division()
        ) {
            prop_assert_eq!(
                allocate(new_seats, &votes, &initial, tie_break, None),
                seat_by_seat(new_seats, &votes, &initial, tie_break)
            );
            // The closed form leaves fewer seats than parties to hand out one at a time.
            let parties = merge(&votes, &initial);
            let mut ranked = queue(&parties, tie_break).into_vec();
            let left = bulk(&mut ranked, new_seats);
            prop_assert!(left.is_some_and(|left| left < ranked.len() as i64), "{left:?}");
        }
    }

    #[test]
    fn the_int32_maximum_is_divided_at_once_as_upstream_would() {
        // Upstream's int32 `2*Seats+1` wraps at 2^30 seats: the party past it drops below
        // every positive priority, so the other party takes the rest.
        let parties = allocate(
            i64::from(i32::MAX),
            &[("a", 3), ("b", 1)],
            &[],
            TieBreak::NameAscending,
            None,
        );
        let seats: Vec<i64> = parties.iter().map(|party| party.seats).collect();
        assert_eq!(seats, [1 << 30, (1 << 30) - 1]);
        let alone = allocate(
            i64::from(i32::MAX),
            &[("a", 1)],
            &[],
            TieBreak::NameAscending,
            None,
        );
        assert_eq!(alone[0].seats, i64::from(i32::MAX));
    }

    #[test]
    fn explain_records_only_the_first_seats() {
        let mut rounds = Vec::new();
        let parties = allocate(
            100_000,
            &[("a", 3), ("b", 2)],
            &[],
            TieBreak::NameAscending,
            Some(&mut rounds),
        );
        assert_eq!(rounds.len(), ROUNDS_RECORDED);
        let votes = [("a", 3), ("b", 2)];
        assert_eq!(
            parties,
            seat_by_seat(100_000, &votes, &[], TieBreak::NameAscending)
        );
    }

    fn seats(
        replicas: i64,
        votes: &[(&str, i64)],
        initial: &[(&str, i64)],
        tie_break: TieBreak,
    ) -> Vec<(String, i64)> {
        allocate(replicas, votes, initial, tie_break, None)
            .into_iter()
            .map(|party| (party.key.to_string(), party.seats))
            .collect()
    }

    fn pairs(expected: &[(&str, i64)]) -> Vec<(String, i64)> {
        expected.iter().map(|(n, v)| (n.to_string(), *v)).collect()
    }

    #[test]
    fn fourteen_at_three_two_one_is_seven_five_two() {
        let got = seats(
            14,
            &[("a", 3), ("b", 2), ("c", 1)],
            &[],
            TieBreak::NameAscending,
        );
        assert_eq!(got, pairs(&[("a", 7), ("b", 5), ("c", 2)]));
    }

    #[test]
    fn ties_go_to_fewer_seats_then_name_in_the_uid_direction() {
        let even = seats(5, &[("A", 1), ("B", 1)], &[], TieBreak::NameAscending);
        assert_eq!(even, pairs(&[("A", 3), ("B", 2)]));
        let odd = seats(5, &[("A", 1), ("B", 1)], &[], TieBreak::NameDescending);
        assert_eq!(odd, pairs(&[("A", 2), ("B", 3)]));
    }

    #[test]
    fn a_party_only_in_the_initial_seats_keeps_them() {
        let got = seats(
            2,
            &[("PartyA", 100)],
            &[("PartyB", 3)],
            TieBreak::NameAscending,
        );
        assert_eq!(got, pairs(&[("PartyA", 2), ("PartyB", 3)]));
    }

    #[test]
    fn keys_that_order_as_the_names_allocate_as_the_names() {
        // Ranks in name order with their names, as the scheduler divides: the descending
        // tie-break walks the ranks from the top as it walks the names.
        let members = [(0u32, "alpha"), (1, "beta"), (2, "gamma")];
        let votes: Vec<((u32, &str), i64)> = members.iter().map(|m| (*m, 1)).collect();
        for tie_break in [TieBreak::NameAscending, TieBreak::NameDescending] {
            let by_rank: Vec<(String, i64)> = allocate(4, &votes, &[], tie_break, None)
                .into_iter()
                .map(|party| (party.key.1.to_string(), party.seats))
                .collect();
            let names = [("alpha", 1), ("beta", 1), ("gamma", 1)];
            assert_eq!(by_rank, seats(4, &names, &[], tie_break));
        }
        let descending: Vec<i64> = allocate(4, &votes, &[], TieBreak::NameDescending, None)
            .into_iter()
            .map(|party| party.seats)
            .collect();
        assert_eq!(descending, [1, 1, 2]);
    }

    #[test]
    fn fnv32a_matches_go() {
        // Go: fnv.New32a() over "" and "a".
        assert_eq!(fnv32a(b""), 0x811c_9dc5);
        assert_eq!(fnv32a(b"a"), 0xe40c_292c);
    }

    #[test]
    fn uid_parity_picks_the_direction() {
        assert_eq!(TieBreak::for_uid(""), TieBreak::NameAscending);
        let odd = TieBreak::for_uid("d43fdeeb-d750-4e2b-bee3-64eb94534f4c");
        assert_eq!(odd, TieBreak::NameDescending);
    }
}
