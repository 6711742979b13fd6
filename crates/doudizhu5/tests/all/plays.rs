//! The kinds of play and their order: a test per rule of the original rules'
//! §3–4 and the decisions of docs/rules/doudizhu5.md.

use cards::RankCounts;
use doudizhu5::movegen::{count, for_each_play, plays};
use doudizhu5::{Kind, KindSet, Play};

fn p(s: &str) -> Play {
    Play::classify(s.parse().unwrap()).unwrap_or_else(|| panic!("{s} should be a play"))
}

fn not_a_play(s: &str) -> bool {
    Play::classify(s.parse().unwrap()).is_none()
}

#[test]
fn rule_3_straights_let_a_and_2_go_low_but_a_caps() {
    assert_eq!(p("A 2 3 4 5").kind, Kind::Straight);
    assert!(p("2 3 4 5 6").beats(&p("A 2 3 4 5")));
    assert!(p("3 4 5 6 7").beats(&p("2 3 4 5 6")));
    assert!(p("T J Q K A").beats(&p("9 T J Q K")));
    assert!(not_a_play("J Q K A 2"));
    assert_eq!(p("2 3 4 5 6 7 8 9 T J Q K A").len, 13);
    assert!(not_a_play("A 2 3 4 5 6 7 8 9 T J Q K A"));
    assert!(not_a_play("3 4 5 6 BJ"));
    assert!(not_a_play("3 4 5 6"));
}

#[test]
fn rule_3_pair_chains_follow_the_same_windows() {
    assert_eq!(p("A A 2 2 3 3").kind, Kind::PairChain);
    assert!(p("2 2 3 3 4 4").beats(&p("A A 2 2 3 3")));
    assert!(not_a_play("K K A A 2 2"));
    assert!(not_a_play("3 3 4 4"));
    assert!(!p("3 3 4 4 5 5 6 6").beats(&p("3 3 4 4 5 5")));
}

#[test]
fn rule_3_trio_chain_aaa222_alone_refused_aaa222333_allowed() {
    assert!(not_a_play("A A A 2 2 2"));
    assert_eq!(p("A A A 2 2 2 3 3 3").kind, Kind::TrioChain);
    assert_eq!(p("2 2 2 3 3 3").kind, Kind::TrioChain);
    assert_eq!(p("5 5 5 6 6 6").kind, Kind::TrioChain);
    assert!(p("3 3 3 4 4 4").beats(&p("2 2 2 3 3 3")));
}

#[test]
fn rule_3_pairs_include_two_of_a_joker_but_not_bj_rj() {
    assert_eq!(p("BJ BJ").kind, Kind::Pair);
    assert!(p("RJ RJ").beats(&p("BJ BJ")));
    assert!(p("BJ BJ").beats(&p("2 2")));
    assert!(not_a_play("BJ RJ"));
    assert!(not_a_play("BJ BJ RJ"));
}

#[test]
fn rule_3_trio_pair_compares_by_its_trio() {
    assert_eq!(p("5 5 5 7 7").kind, Kind::TrioPair);
    assert_eq!(p("5 5 5 BJ BJ").kind, Kind::TrioPair);
    assert!(p("6 6 6 3 3").beats(&p("5 5 5 A A")));
    assert!(not_a_play("5 5 5 5 5 7 7"));
    assert!(not_a_play("5 5 5 7 8"));
}

#[test]
fn rule_3_plane_order_aaa222_then_333444_up_to_kkkaaa_then_222333() {
    let order = [
        "A A A 2 2 2 8 8 9 9",
        "3 3 3 4 4 4 8 8 9 9",
        "4 4 4 5 5 5 8 8 9 9",
        "Q Q Q K K K 8 8 9 9",
        "K K K A A A 2 2 3 3",
        "2 2 2 3 3 3 8 8 9 9",
    ];
    for w in order.windows(2) {
        assert!(p(w[1]).beats(&p(w[0])), "{} should beat {}", w[1], w[0]);
        assert!(!p(w[0]).beats(&p(w[1])));
    }
    assert!(order.iter().all(|s| p(s).kind == Kind::Plane));
}

#[test]
fn rule_3_plane_wings_must_be_consecutive_pairs() {
    assert_eq!(p("5 5 5 6 6 6 Q Q K K").kind, Kind::Plane);
    assert_eq!(p("J J J Q Q Q K K K A A 2 2 3 3").kind, Kind::Plane);
    assert!(not_a_play("5 5 5 6 6 6 Q Q A A"));
    assert!(not_a_play("5 5 5 6 6 6 A A 2 2"), "AA22 is no wing");
    assert!(not_a_play("5 5 5 6 6 6 2 2 BJ BJ"), "22 BJ BJ is no wing");
}

#[test]
fn rule_3_plane_888999_with_7788_refused_it_hides_a_bomb() {
    assert!(not_a_play("8 8 8 9 9 9 7 7 8 8"));
    assert_eq!(p("8 8 8 9 9 9 5 5 6 6").kind, Kind::Plane);
}

#[test]
fn rule_3_plane_four_joker_wings() {
    let four = p("2 2 2 3 3 3 BJ BJ RJ RJ");
    assert_eq!(four.kind, Kind::Plane);
    assert!(not_a_play("2 2 2 3 3 3 4 4 4 BJ BJ RJ RJ 5 5"));
}

#[test]
fn rule_3_bombs_by_size_then_rank() {
    assert_eq!(p("6 6 6 6 6").kind, Kind::Bomb);
    assert!(p("3 3 3 3 3").beats(&p("2 2 2 2")));
    assert!(p("4 4 4 4 4").beats(&p("3 3 3 3 3")));
    assert!(p("3 3 3 3 3 3").beats(&p("2 2 2 2 2")));
    assert!(p("3 3 3 3").beats(&p("T J Q K A")));
    let twelve: RankCounts = RankCounts::of(cards::Rank::Two, 12);
    assert_eq!(Play::classify(twelve).map(|p| p.kind), Some(Kind::Bomb));
}

#[test]
fn rule_3_joker_bomb_between_2222_and_33333() {
    for jokers in ["BJ BJ BJ", "RJ RJ RJ", "BJ BJ RJ RJ", "BJ BJ BJ RJ RJ RJ"] {
        let j = p(jokers);
        assert_eq!(j.kind, Kind::JokerBomb, "{jokers}");
        assert!(j.beats(&p("2 2 2 2")), "{jokers} beats 2222");
        assert!(p("3 3 3 3 3").beats(&j), "33333 beats {jokers}");
    }
    assert!(p("RJ RJ RJ").beats(&p("BJ BJ BJ")));
    assert!(p("BJ BJ BJ RJ").beats(&p("RJ RJ RJ")));
    assert!(p("BJ RJ RJ RJ").beats(&p("BJ BJ RJ RJ")));
    assert!(p("BJ BJ BJ RJ RJ").beats(&p("BJ RJ RJ RJ")));
    let twelve_twos: RankCounts = RankCounts::of(cards::Rank::Two, 12);
    let top = Play::classify(twelve_twos).unwrap();
    assert!(top.beats(&p("BJ BJ BJ RJ RJ RJ")));
}

#[test]
fn rule_4_non_bombs_compare_only_with_same_kind_and_length() {
    assert!(!p("4 4").beats(&p("3")));
    assert!(!p("4 5 6 7 8 9").beats(&p("3 4 5 6 7")));
    assert!(!p("3 4 5 6 7").beats(&p("3 4 5 6 7")));
    assert!(p("2").beats(&p("A")));
    assert!(p("RJ").beats(&p("BJ")));
}

/// Every sub-multiset of `hand`, classified: the slow, obviously right answer.
fn brute_force(hand: RankCounts, last: Option<&Play>) -> Vec<RankCounts> {
    let ranks: Vec<(cards::Rank, u32)> = hand.iter().collect();
    let mut out = Vec::new();
    fn rec(
        i: usize,
        ranks: &[(cards::Rank, u32)],
        acc: RankCounts,
        last: Option<&Play>,
        out: &mut Vec<RankCounts>,
    ) {
        if i == ranks.len() {
            if let Some(p) = Play::classify(acc) {
                if last.is_none_or(|l| p.beats(l)) {
                    out.push(acc);
                }
            }
            return;
        }
        let (r, n) = ranks[i];
        for k in 0..=n {
            rec(i + 1, ranks, acc.plus(RankCounts::of(r, k)), last, out);
        }
    }
    rec(0, &ranks, RankCounts::EMPTY, last, &mut out);
    out.sort();
    out
}

fn generated(hand: RankCounts, last: Option<&Play>) -> Vec<RankCounts> {
    let mut v: Vec<RankCounts> = plays(hand, last).iter().map(|p| p.cards).collect();
    v.sort();
    v
}

#[test]
fn generation_is_exact_on_fixed_hands() {
    for (hand, last) in [
        ("A A A 2 2 2 3 3 3 4 4 5", None),
        ("3 3 3 4 4 4 5 5 6 6 BJ BJ RJ RJ", None),
        ("2 2 2 3 3 3 BJ BJ RJ RJ 7 7 8", Some("A A A 2 2 2 8 8 9 9")),
        ("A 2 3 4 5 6 7 8 9 T J Q K", None),
        ("9 9 9 9 9 BJ BJ RJ 4 4 4 4", Some("2 2 2 2")),
    ] {
        let hand: RankCounts = hand.parse().unwrap();
        let last = last.map(p);
        assert_eq!(
            generated(hand, last.as_ref()),
            brute_force(hand, last.as_ref()),
            "{hand}"
        );
        assert_eq!(
            count(hand, last.as_ref()),
            brute_force(hand, last.as_ref()).len()
        );
    }
}

mod props {
    use super::*;
    use proptest::prelude::*;

    /// Small hands from a pool rich in chains, trios and jokers, so every kind turns up.
    fn small_hand() -> impl Strategy<Value = RankCounts> {
        proptest::collection::vec((0usize..15, 1u32..=4), 1..7).prop_map(|v| {
            let mut rc = RankCounts::EMPTY;
            for (i, n) in v {
                let r = cards::Rank::ALL[i];
                let cap = if r.is_joker() { 3 } else { 12 };
                let add = n.min(cap - rc.count(r));
                rc.add(r, add);
            }
            rc
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn generated_plays_are_exactly_the_legal_plays(hand in small_hand(), other in small_hand()) {
            prop_assert_eq!(generated(hand, None), brute_force(hand, None));
            let lead = plays(other, None);
            if let Some(last) = lead.get(lead.len() / 2) {
                prop_assert_eq!(generated(hand, Some(last)), brute_force(hand, Some(last)));
            }
        }

        #[test]
        fn every_generated_play_classifies_to_itself_and_is_held(hand in small_hand()) {
            for q in plays(hand, None) {
                prop_assert!(hand.contains(q.cards));
                prop_assert_eq!(Play::classify(q.cards), Some(q));
            }
        }

        #[test]
        fn pruned_generation_is_the_kind_filter_of_full_generation(hand in small_hand(), bits in 0u16..0x400) {
            let kinds = KindSet(bits);
            let mut pruned = Vec::new();
            for_each_play(hand, None, kinds, |q| pruned.push(q.cards));
            let full: Vec<RankCounts> = plays(hand, None).into_iter().filter(|q| kinds.contains(q.kind)).map(|q| q.cards).collect();
            prop_assert_eq!(pruned, full);
        }
    }
}

#[test]
fn rule_3_longer_planes_order_by_their_window() {
    let low = p("A A A 2 2 2 3 3 3 7 7 8 8 9 9");
    let mid = p("2 2 2 3 3 3 4 4 4 7 7 8 8 9 9");
    let high = p("Q Q Q K K K A A A 3 3 4 4 5 5");
    assert!(mid.beats(&low) && high.beats(&mid));
    assert!(
        !p("3 3 3 4 4 4 7 7 8 8").beats(&low),
        "a plane of two trios cannot follow three"
    );
}

mod big_hands {
    use super::*;
    use game::{deal, Seed};
    use proptest::prelude::*;
    use std::collections::HashSet;
    use std::sync::OnceLock;

    /// Every play that three decks can make.
    fn all_plays() -> &'static Vec<Play> {
        static ALL: OnceLock<Vec<Play>> = OnceLock::new();
        ALL.get_or_init(|| plays(doudizhu5::DECK.rank_counts(), None))
    }

    fn dealt(seed: u64, n: usize) -> RankCounts {
        let mut cards = doudizhu5::DECK.cards();
        deal::shuffle(&mut cards, &mut Seed::from_u64(seed).rng());
        RankCounts::from_cards(&cards[..n])
    }

    #[test]
    fn the_deck_plays_are_each_a_distinct_play() {
        let all = all_plays();
        let distinct: HashSet<RankCounts> = all.iter().map(|q| q.cards).collect();
        assert_eq!(distinct.len(), all.len());
        for q in all {
            assert_eq!(Play::classify(q.cards), Some(*q));
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// A 31- or 38-card hand's plays are exactly the deck's plays it holds, and its
        /// follows exactly those that beat the play on the table.
        #[test]
        fn dealt_hands_list_exactly_the_plays_they_hold(seed in any::<u64>(), big in any::<bool>(), pick in any::<usize>()) {
            let hand = dealt(seed, if big { 38 } else { 31 });
            let held: Vec<RankCounts> = {
                let mut v: Vec<RankCounts> = all_plays().iter().filter(|q| hand.contains(q.cards)).map(|q| q.cards).collect();
                v.sort();
                v
            };
            prop_assert_eq!(generated(hand, None), held);
            prop_assert_eq!(count(hand, None), plays(hand, None).len());
            let last = all_plays()[pick % all_plays().len()];
            let mut beating: Vec<RankCounts> = plays(hand, None).into_iter().filter(|q| q.beats(&last)).map(|q| q.cards).collect();
            beating.sort();
            prop_assert_eq!(generated(hand, Some(&last)), beating);
            prop_assert_eq!(count(hand, Some(&last)), plays(hand, Some(&last)).len());
        }
    }
}
