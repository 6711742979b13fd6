//! The play space, classification, comparison and move generation, against the original rules'
//! appendix, the counts of docs/rules/doudizhu.md and a brute force over random hands.

use cards::{Card, Rank, RankCounts};
use doudizhu::movegen::{all_plays, legal_plays};
use doudizhu::{Kind, Play};
use game::deal::{below, shuffle, GameRng};
use game::Seed;
use proptest::prelude::*;
use std::collections::{BTreeMap, HashSet};
use std::sync::OnceLock;

fn play(text: &str) -> Play {
    text.parse()
        .unwrap_or_else(|e| panic!("{text} should be a play: {e}"))
}

fn counts(text: &str) -> RankCounts {
    text.parse().unwrap()
}

fn beats(a: &str, b: &str) -> bool {
    play(a).beats(play(b))
}

#[test]
fn per_kind_counts_of_the_27472_space() {
    let mut per_kind = BTreeMap::new();
    for p in all_plays() {
        *per_kind.entry(p.kind()).or_insert(0) += 1;
    }
    let expected = [
        (Kind::Solo, 15),
        (Kind::Pair, 13),
        (Kind::Trio, 13),
        (Kind::TrioSolo, 182),
        (Kind::TrioPair, 156),
        (Kind::SoloChain, 36),
        (Kind::PairChain, 52),
        (Kind::TrioChain, 45),
        (Kind::PlaneSolo, 21_822),
        (Kind::PlanePair, 2_939),
        (Kind::FourTwoSolo, 1_326),
        (Kind::FourTwoPair, 858),
        (Kind::Bomb, 13),
        (Kind::Rocket, 1),
    ];
    assert_eq!(per_kind, BTreeMap::from(expected));
    let plays = all_plays();
    assert_eq!(plays.len() + 1, 27_472, "27,471 plays and the pass");
    let order = |p: &Play| (p.kind(), p.len(), p.rank());
    assert!(plays.windows(2).all(|w| order(&w[0]) <= order(&w[1])));
}

#[test]
fn every_play_of_the_space_is_one_multiset_that_classifies_to_itself() {
    let plays = all_plays();
    let distinct: HashSet<RankCounts> = plays.iter().map(|p| p.cards()).collect();
    assert_eq!(distinct.len(), plays.len(), "a multiset listed twice");
    for p in plays {
        assert_eq!(Play::classify(p.cards()), Some(p), "{p}");
        assert_eq!(p.to_string().parse::<Play>(), Ok(p));
        assert_eq!(p.size(), p.cards().len());
        assert_eq!(p.is_bomb(), matches!(p.kind(), Kind::Bomb | Kind::Rocket));
    }
}

#[test]
fn appendix_b_rocket_beats_everything() {
    let rocket = play("BJ RJ");
    assert_eq!(
        (rocket.kind(), rocket.rank()),
        (Kind::Rocket, Rank::RedJoker)
    );
    assert!(rocket.is_bomb());
    for p in all_plays() {
        assert_eq!(rocket.beats(p), p != rocket, "rocket against {p}");
        assert!(!p.beats(rocket), "{p} beats the rocket");
    }
}

#[test]
fn appendix_b_bomb_beats_any_non_bomb() {
    let bomb = play("3 3 3 3");
    assert!(bomb.is_bomb());
    for p in all_plays().into_iter().filter(|p| !p.is_bomb()) {
        assert!(bomb.beats(p), "bomb against {p}");
        assert!(!p.beats(bomb), "{p} beats a bomb");
    }
    assert!(beats("8 8 8 8", "7 7 7 7"));
    assert!(!beats("7 7 7 7", "8 8 8 8"));
    assert!(beats("2 2 2 2", "A A A A"));
    assert!(!beats("2 2 2 2", "BJ RJ"));
}

#[test]
fn appendix_b_only_same_kind_and_size_compare() {
    assert!(beats("4", "3"));
    assert!(beats("RJ", "BJ"));
    assert!(beats("BJ", "2"));
    assert!(!beats("3", "4"));
    assert!(!beats("5", "5"));
    assert!(!beats("4 4", "3"));
    assert!(!beats("9 9 9", "8 8"));
    assert!(
        !beats("4 5 6 7 8 9", "3 4 5 6 7"),
        "chains of different lengths"
    );
    assert!(beats("4 5 6 7 8", "3 4 5 6 7"));
    assert!(!beats("4 4 5 5 6 6 7 7", "3 3 4 4 5 5"));
    assert!(
        !beats("9 9 9 9 3 4", "8 8 8 8 5 5 6 6"),
        "four with two solos against pairs"
    );
    assert!(
        !beats("4 4 4 5 5", "3 3 3 K"),
        "trio with a pair against a trio with a solo"
    );
    // A kicker kind compares by its largest group, never by the kickers.
    assert!(beats("4 4 4 3", "3 3 3 K"));
    assert!(!beats("3 3 3 2", "4 4 4 5"));
    assert!(beats("5 5 5 5 3 4", "4 4 4 4 2 2"));
    assert!(beats("4 4 4 5 5 5 3 6", "3 3 3 4 4 4 K A"));
}

#[test]
fn appendix_b_chains_exclude_two_and_jokers() {
    assert_eq!(play("T J Q K A").kind(), Kind::SoloChain);
    assert_eq!(play("3 4 5 6 7 8 9 T J Q K A").len(), 12);
    for not in [
        "J Q K A 2",
        "Q K A 2 BJ",
        "K K A A 2 2",
        "A A A 2 2 2",
        "K A 2 3 4",
    ] {
        assert_eq!(Play::classify(counts(not)), None, "{not}");
    }
    for p in all_plays() {
        if matches!(
            p.kind(),
            Kind::SoloChain | Kind::PairChain | Kind::TrioChain
        ) {
            assert!(p.cards().highest() <= Some(Rank::Ace), "{p}");
        }
    }
}

#[test]
fn appendix_b_kinds_of_play_with_the_seeds_examples() {
    let cases = [
        ("BJ RJ", Kind::Rocket, "RJ", 1),
        ("8 8 8 8", Kind::Bomb, "8", 1),
        ("BJ", Kind::Solo, "BJ", 1),
        ("2 2", Kind::Pair, "2", 1),
        ("7 7 7", Kind::Trio, "7", 1),
        ("8 8 8 9", Kind::TrioSolo, "8", 1),
        ("8 8 8 9 9", Kind::TrioPair, "8", 1),
        ("3 4 5 6 7 8", Kind::SoloChain, "3", 6),
        ("3 3 4 4 5 5", Kind::PairChain, "3", 3),
        ("3 3 3 4 4 4 5 5 5 6 6 6 7 7 7", Kind::TrioChain, "3", 5),
        ("3 3 3 4 4 4 6 9", Kind::PlaneSolo, "3", 2),
        ("3 3 3 4 4 4 5 5 5 6 6 7 7 9 9", Kind::PlanePair, "3", 3),
        ("5 5 5 5 3 8", Kind::FourTwoSolo, "5", 1),
        ("4 4 4 4 5 5 7 7", Kind::FourTwoPair, "4", 1),
    ];
    for (text, kind, rank, len) in cases {
        let p = play(text);
        assert_eq!(
            (p.kind(), p.rank().symbol(), p.len()),
            (kind, rank, len),
            "{text}"
        );
    }
}

#[test]
fn rule_trio_solo_kicker_may_be_a_joker_and_pairs_exclude_jokers() {
    assert_eq!(play("3 3 3 RJ").kind(), Kind::TrioSolo);
    assert_eq!(Play::classify(counts("BJ BJ")), None);
    assert_eq!(Play::classify(counts("2 2 2 BJ BJ")), None);
}

#[test]
fn rule_plane_solo_kickers_no_chain_rank_no_four_no_rocket_no_adjacent_trio() {
    assert_eq!(
        play("3 3 3 4 4 4 5 5").kind(),
        Kind::PlaneSolo,
        "a pair as two kickers"
    );
    assert_eq!(
        play("3 3 3 4 4 4 5 5 5 9 9 9").kind(),
        Kind::PlaneSolo,
        "a far trio"
    );
    assert_eq!(
        play("Q Q Q K K K A A A 2 2 2").kind(),
        Kind::PlaneSolo,
        "2 never chains"
    );
    assert_eq!(
        play("3 3 3 4 4 4 5 5 5 6 6 6").kind(),
        Kind::TrioChain,
        "not a plane"
    );
    for not in [
        "3 3 3 4 4 4 BJ RJ",
        "3 3 3 4 4 4 3 4",
        "3 3 3 4 4 4 5 5 5 6 6 6 6 7 8 9",
        "3 3 3 4 4 4 5 5 5 6 6 6 7 7 7 9",
        "3 3 3 4 4 4 6 6 6 7 7 7",
    ] {
        assert_eq!(Play::classify(counts(not)), None, "{not}");
    }
}

#[test]
fn rule_plane_pair_takes_pairs_of_different_ranks() {
    assert_eq!(play("3 3 3 4 4 4 5 5 6 6").kind(), Kind::PlanePair);
    assert_eq!(Play::classify(counts("3 3 3 4 4 4 5 5 5 5")), None);
    assert_eq!(play("3 3 3 4 4 4 5 5 6 6").rank(), Rank::Three);
}

#[test]
fn rule_four_two_kickers_may_pair_but_not_be_the_rocket() {
    assert_eq!(play("4 4 4 4 5 5").kind(), Kind::FourTwoSolo);
    assert_eq!(play("4 4 4 4 BJ 5").kind(), Kind::FourTwoSolo);
    assert_eq!(Play::classify(counts("4 4 4 4 BJ RJ")), None);
    assert_eq!(Play::classify(counts("4 4 4 4 5 5 5 5")), None);
    assert_eq!(Play::classify(counts("4 4 4 4 5 5 5")), None);
}

#[test]
fn play_text_round_trips_and_errors_read_well() {
    let p = play("4 3 3 3");
    assert_eq!(p.to_string(), "3 3 3 4");
    assert_eq!(play("33344"), play("4 4 3 3 3"));
    let json = serde_json::to_string(&p).unwrap();
    assert_eq!(json, "\"3 3 3 4\"");
    assert_eq!(serde_json::from_str::<Play>(&json).unwrap(), p);
    assert!(serde_json::from_str::<Play>("\"3 4\"").is_err());
    assert_eq!(
        "4 3".parse::<Play>().unwrap_err().to_string(),
        "3 4 is not a play"
    );
    assert_eq!(
        "3 X".parse::<Play>().unwrap_err().to_string(),
        "unknown card 'X'"
    );
    assert!(""
        .parse::<Play>()
        .unwrap_err()
        .to_string()
        .contains("no cards"));
    assert!("3d".parse::<Play>().is_err());
    assert_eq!(Play::classify(RankCounts::EMPTY), None);
    assert_eq!(Play::classify(counts("3 3 3 3 3")), None);
}

#[test]
fn kind_names_round_trip() {
    for k in Kind::ALL {
        assert_eq!(Kind::from_name(k.name()), Some(k));
    }
    assert_eq!(Kind::TrioSolo.name(), "trio_solo");
    assert_eq!(Kind::from_name("plane"), None);
}

/// A random hand of `1..=20` cards from the 54-card deck.
fn random_hand(rng: &mut GameRng) -> RankCounts {
    let mut deck: Vec<Card> = Card::all().collect();
    shuffle(&mut deck, rng);
    let n = 1 + below(rng, 20);
    RankCounts::from_cards(&deck[..n])
}

/// A hand rich in trios and fours (random counts per rank, cut at 20 cards), so that planes
/// and four-with-two plays are common.
fn rich_hand(rng: &mut GameRng) -> RankCounts {
    let mut hand = RankCounts::EMPTY;
    let start = below(rng, 15);
    for i in 0..15 {
        let r = Rank::ALL[(start + i) % 15];
        let most = if r.is_joker() { 1 } else { 4 };
        let n = (below(rng, most + 2) as u32)
            .min(most as u32)
            .min(20 - hand.len());
        hand.add(r, n);
    }
    hand
}

/// Every sub-multiset of `hand` that is a play, by brute force.
fn plays_by_brute_force(hand: RankCounts) -> HashSet<Play> {
    fn walk(hand: RankCounts, rank: usize, acc: RankCounts, found: &mut HashSet<Play>) {
        if rank == 15 {
            found.extend(Play::classify(acc));
            return;
        }
        let mut acc = acc;
        for n in 0..=hand.count_at(rank) {
            walk(hand, rank + 1, acc, found);
            if n < hand.count_at(rank) {
                acc.add(Rank::ALL[rank], 1);
            }
        }
    }
    let mut found = HashSet::new();
    walk(hand, 0, RankCounts::EMPTY, &mut found);
    found
}

fn generated(hand: RankCounts, last: Option<Play>) -> HashSet<Play> {
    let mut out = Vec::new();
    legal_plays(hand, last, &mut out);
    let set: HashSet<Play> = out.iter().copied().collect();
    assert_eq!(set.len(), out.len(), "a play listed twice for {hand}");
    for p in &out {
        assert_eq!(Play::classify(p.cards()), Some(*p), "{p} misclassified");
        assert!(hand.contains(p.cards()), "{p} is not in {hand}");
    }
    set
}

#[test]
fn legal_plays_are_exactly_the_plays_a_brute_force_finds() {
    let space = all_plays();
    let mut rng = Seed::from_u64(2026).rng();
    let mut kinds_seen = HashSet::new();
    for i in 0..1000 {
        let hand = if i % 2 == 0 {
            random_hand(&mut rng)
        } else {
            rich_hand(&mut rng)
        };
        let all = plays_by_brute_force(hand);
        assert_eq!(generated(hand, None), all, "leading with {hand}");
        kinds_seen.extend(all.iter().map(|p| (p.kind(), p.len())));
        let own: Vec<Play> = all.iter().copied().collect();
        for k in 0..8 {
            let last = if k % 2 == 0 || own.is_empty() {
                space[below(&mut rng, space.len())]
            } else {
                own[below(&mut rng, own.len())]
            };
            let beating: HashSet<Play> = all.iter().copied().filter(|p| p.beats(last)).collect();
            assert_eq!(
                generated(hand, Some(last)),
                beating,
                "{hand} following {last}"
            );
        }
    }
    for kind in Kind::ALL {
        assert!(
            kinds_seen.iter().any(|&(k, _)| k == kind),
            "no hand made a {kind}"
        );
    }
    for (kind, longest) in [
        (Kind::PlaneSolo, 4),
        (Kind::PlanePair, 3),
        (Kind::TrioChain, 5),
    ] {
        for len in 2..=longest {
            assert!(
                kinds_seen.contains(&(kind, len)),
                "no hand made a {kind} of {len}"
            );
        }
    }
}

#[test]
fn the_full_deck_leads_the_whole_space() {
    let deck = RankCounts::from_cards(&Card::all().collect::<Vec<_>>());
    let space: HashSet<Play> = all_plays().into_iter().collect();
    assert_eq!(generated(deck, None), space);
    assert!(generated(deck, Some(play("BJ RJ"))).is_empty());
    let over_bombs = generated(deck, Some(play("A A A A")));
    let expected: HashSet<Play> = [play("2 2 2 2"), play("BJ RJ")].into();
    assert_eq!(over_bombs, expected);
}

/// The play space as a set of multisets, built once for the property tests.
fn space() -> &'static HashSet<RankCounts> {
    static SPACE: OnceLock<HashSet<RankCounts>> = OnceLock::new();
    SPACE.get_or_init(|| all_plays().into_iter().map(|p| p.cards()).collect())
}

/// Any multiset of one deck's ranks, up to 20 cards.
fn multiset() -> impl Strategy<Value = RankCounts> {
    proptest::collection::vec(0u32..=4, 15).prop_map(|counts| {
        let mut cards = RankCounts::EMPTY;
        for (r, n) in Rank::ALL.into_iter().zip(counts) {
            let n = if r.is_joker() { n % 2 } else { n };
            cards.add(r, n.min(20 - cards.len()));
        }
        cards
    })
}

proptest! {
    #[test]
    fn classify_accepts_exactly_the_multisets_of_the_space(cards in multiset()) {
        let play = Play::classify(cards);
        prop_assert_eq!(play.is_some(), space().contains(&cards), "{}", cards);
        if let Some(p) = play {
            prop_assert_eq!(p.cards(), cards);
        }
    }

    #[test]
    fn odd_hands_still_give_only_plays_they_hold(raw in 0u64..(1 << 60)) {
        // Counts above four and doubled jokers are not one deck, yet must not break anything.
        let hand = RankCounts::from_raw(raw);
        let mut out = Vec::new();
        legal_plays(hand, None, &mut out);
        for p in &out {
            prop_assert!(hand.contains(p.cards()) && space().contains(&p.cards()), "{}", p);
        }
    }
}
