//! Webster (Sainte-Laguë) seat allocation with Karmada's tie-break
//! (`pkg/util/helper/webstermethod.go AllocateWebsterSeats`, `binding.go Dispenser`).
//!
//! Each seat goes to the party with the largest `votes / (2·seats + 1)`, compared as float64
//! like upstream. On a tie the party with fewer seats wins, then the name: ascending, or
//! descending when the FNV-1a hash of the resource UID is odd.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// Which way equal parties are ordered by name (`tieBreakerByUID`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TieBreak {
    NameAscending,
    NameDescending,
}

impl TieBreak {
    /// An empty UID, or an even FNV-1a (32-bit) hash, breaks ties by ascending name.
    pub fn for_uid(uid: &str) -> TieBreak {
        if !uid.is_empty() && fnv32a(uid.as_bytes()) & 1 == 1 {
            TieBreak::NameDescending
        } else {
            TieBreak::NameAscending
        }
    }
}

/// FNV-1a, 32 bits (Go's `hash/fnv.New32a`).
pub fn fnv32a(bytes: &[u8]) -> u32 {
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
pub struct Party<K> {
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

/// Go: `float64(Votes) / float64(2*Seats+1)`, with Seats an int32.
fn priority(votes: i64, seats: i64) -> f64 {
    votes as f64 / (2 * seats + 1) as f64
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

/// `AllocateWebsterSeats`: hands `new_seats` out over `votes`, starting from `initial`
/// (a party only in `initial` keeps its seats with 0 votes). Both lists are in strictly
/// ascending key order, and a key orders as the party's name (a name, or a cluster's rank in
/// the fleet's name order: the caller picks, so a division of thousands of clusters compares
/// integers). Parties come back in key order; `rounds` records each seat when asked.
pub fn allocate<K: Ord + Copy>(
    new_seats: i64,
    votes: &[(K, i64)],
    initial: &[(K, i64)],
    tie_break: TieBreak,
    mut rounds: Option<&mut Vec<Round<K>>>,
) -> Vec<Party<K>> {
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
    let mut heap: BinaryHeap<Ranked<K>> = parties
        .iter()
        .enumerate()
        .map(|(position, party)| Ranked::new(party, position, tie_break))
        .collect();
    for _ in 0..new_seats.max(0) {
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
    for ranked in heap.into_vec() {
        parties[ranked.position].seats = ranked.seats;
    }
    parties
}

#[cfg(test)]
mod tests {
    use super::*;

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
