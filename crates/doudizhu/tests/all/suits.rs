//! The suits of the cards in a view (people see suited cards; the rules play by rank):
//! every card of the deck is in exactly one place, and the suited cards have the ranks of
//! the rank-only view, in random games with and without the stakes options, and in games
//! dealt from given hands.

use cards::{CardSet, Deck, Rank, RankCounts};
use doudizhu::{Action, Config, CustomDeal, DouDizhu, Doubling, Play, State, Suits, View};
use game::{deal, Bot, Decision, RandomBot, Rules, Seed, ToAct, Viewer};
use proptest::prelude::*;

fn ranks(set: CardSet) -> RankCounts {
    set.rank_counts()
}

/// Checks one moment of a game from every seat and a spectator.
fn check(s: &State) -> Result<(), TestCaseError> {
    let watch = DouDizhu::view(s, Viewer::Spectator);
    prop_assert_eq!(watch.suits.hand, None);
    prop_assert_eq!(watch.suits.plays.len(), watch.history.len());
    // The plays: their suited cards have the play's ranks; passes have none.
    let mut placed = CardSet::EMPTY;
    let mut count = 0;
    for ((_, p), suited) in watch.history.iter().zip(&watch.suits.plays) {
        match (p, suited) {
            (Some(p), Some(c)) => {
                prop_assert_eq!(ranks(*c), p.cards());
                placed = placed.union(*c);
                count += c.len();
            }
            (None, None) => {}
            _ => prop_assert!(false, "a play and its suited cards disagree"),
        }
    }
    for seat in 0..3 {
        let v: View = DouDizhu::view(s, Viewer::Seat(seat));
        let hand = v.suits.hand.expect("a seat sees its suited hand");
        prop_assert_eq!(ranks(hand), s.hand(seat));
        prop_assert_eq!(&v.suits.plays, &watch.suits.plays);
        prop_assert_eq!(v.suits.shown.map(ranks), v.shown);
        prop_assert_eq!(v.suits.kitty.map(ranks), v.kitty);
        prop_assert_eq!(v.suits.revealed.map(|r| r.map(ranks)), v.revealed);
        placed = placed.union(hand);
        count += hand.len();
    }
    // Before the landlord takes it, the kitty is the rest of the deck.
    if watch.landlord.is_none() {
        let kitty = Deck::WITH_JOKERS
            .cards()
            .into_iter()
            .collect::<CardSet>()
            .minus(placed);
        prop_assert_eq!(kitty.len(), 3);
        count += 3;
        placed = placed.union(kitty);
    }
    // Every card once: no card in two places, and the whole deck.
    prop_assert_eq!(count, 54);
    prop_assert_eq!(placed.len(), 54);
    Ok(())
}

fn play_game(config: &Config, seed: u64) -> Result<(), TestCaseError> {
    let seed = Seed::from_u64(seed);
    let mut s = DouDizhu::start(config, 3, &seed).unwrap();
    let mut bot = RandomBot::new(&seed.derive(1));
    let mut legal = Vec::new();
    let mut events = Vec::new();
    while let ToAct::Seat(seat) = DouDizhu::to_act(&s) {
        check(&s)?;
        legal.clear();
        DouDizhu::legal_into(&s, seat, &mut legal);
        let a =
            <RandomBot as Bot<DouDizhu>>::act(&mut bot, &Decision::from_state(&s, seat, &legal));
        DouDizhu::apply(&mut s, seat, a, &mut events).unwrap();
    }
    check(&s)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn suited_cards_are_conserved_and_match_the_ranks(seed in any::<u64>(), options in 0u8..4) {
        let config = Config {
            doubling: if options & 1 == 1 { Doubling::Super } else { Doubling::Off },
            show_cards: options & 2 == 2,
            ..Config::default()
        };
        play_game(&config, seed)?;
    }

    /// A deal given by rank has no suits: any fixed rule would tell a seat, by its own
    /// suits, what the others hold (the secrecy tests swap hidden cards and compare).
    #[test]
    fn a_deal_from_given_hands_has_no_suits(seed in any::<u64>(), landlord in 0usize..3) {
        let mut cards = Deck::WITH_JOKERS.cards();
        deal::shuffle(&mut cards, &mut Seed::from_u64(seed).rng());
        let hand = |i: usize| RankCounts::from_cards(cards[i * 17..(i + 1) * 17].iter());
        let config = Config {
            landlord: Some(landlord),
            deal: Some(CustomDeal {
                hands: [hand(0), hand(1), hand(2)],
                kitty: RankCounts::from_cards(cards[51..].iter()),
            }),
            ..Config::default()
        };
        let s = DouDizhu::start(&config, 3, &Seed::from_u64(seed)).unwrap();
        for viewer in [Viewer::Spectator, Viewer::Seat(landlord)] {
            prop_assert_eq!(DouDizhu::view(&s, viewer).suits, Suits::default());
        }
    }
}

/// The deal by rank is the one the rules made before suits were kept: shuffling the
/// suited cards permutes them as shuffling their ranks did, so records still verify.
#[test]
fn keeping_suits_leaves_the_deal_by_rank_as_it_was() {
    for n in 0..200 {
        let seed = Seed::from_u64(n);
        let s = DouDizhu::start(&Config::default(), 3, &seed).unwrap();
        let mut rng = seed.rng();
        let _first_bidder = deal::below(&mut rng, 3);
        let mut ranks: Vec<Rank> = Deck::WITH_JOKERS.cards().iter().map(|c| c.rank()).collect();
        deal::shuffle(&mut ranks, &mut rng);
        for seat in 0..3 {
            let dealt =
                RankCounts::from_ranks(ranks.iter().skip(seat).step_by(3).take(17).copied());
            assert_eq!(s.hand(seat), dealt, "seed {n} seat {seat}");
        }
    }
}

/// The landlord's copies of a rank from the kitty, which everyone saw, are played before
/// the hand's own: so the suit of a play tells nothing of what else the landlord holds.
#[test]
fn the_kitty_copies_of_a_rank_are_played_first() {
    let mut tried = 0;
    for n in 0..300 {
        let config = Config {
            landlord: Some(0),
            ..Config::default()
        };
        let mut s = DouDizhu::start(&config, 3, &Seed::from_u64(n)).unwrap();
        let v = DouDizhu::view(&s, Viewer::Seat(0));
        let kitty = v.suits.kitty.unwrap();
        // A kitty card whose rank the landlord also holds from the deal, played alone.
        let Some(card) = kitty
            .iter()
            .find(|c| !c.is_joker() && s.hand(0).count(c.rank()) >= 2)
        else {
            continue;
        };
        tried += 1;
        let single = Action::Play(card.rank().symbol().parse::<Play>().unwrap());
        DouDizhu::apply(&mut s, 0, single, &mut Vec::new()).unwrap();
        let v = DouDizhu::view(&s, Viewer::Spectator);
        let played = v.suits.plays[0].unwrap();
        // One card of the rank, from the kitty (which may hold two of it).
        assert_eq!(
            played.rank_counts(),
            RankCounts::of(card.rank(), 1),
            "seed {n}"
        );
        assert!(
            kitty.contains_all(played),
            "seed {n}: {played} is not from the kitty {kitty}"
        );
    }
    assert!(tried > 10);
}
