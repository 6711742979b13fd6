//! The `heuristic` bot: strength against random play (the bar, measured against
//! RLCard's `doudizhu-rule-v1`: 94.2% as landlord, 5.1% allowed as peasants) and its
//! behaviour in hand-built positions.

use cards::RankCounts;
use doudizhu::bots::HeuristicBot;
use doudizhu::movegen::legal_plays;
use doudizhu::{Action, DouDizhu, Doubling, Phase, Play, View};
use game::sim::{run, SimOptions, SimReport};
use game::{Bot, Decision, Seat, Seed};
use proptest::prelude::*;
use serde_json::json;

/// Self-play with seat 0 the fixed landlord (no bidding), bots in seat order.
fn fixed_landlord(bots: [&str; 3], games: u64, seed: u64) -> SimReport {
    let opts = SimOptions::seated(json!({"landlord": 0}), &bots, games, seed);
    run::<DouDizhu>(&opts).expect("self-play runs")
}

/// The landlord's win rate in a report.
fn landlord_win_rate(report: &SimReport) -> f64 {
    let landlord = report
        .bots
        .iter()
        .find_map(|b| b.roles.get("landlord"))
        .expect("a landlord");
    landlord.win_rate
}

#[test]
#[cfg_attr(debug_assertions, ignore = "2,000 games: run with --release")]
fn heuristic_landlord_beats_random_peasants_in_94_percent() {
    let report = fixed_landlord(["heuristic", "random", "random"], 2_000, 1);
    let rate = landlord_win_rate(&report);
    assert!(rate >= 0.94, "heuristic landlord won {rate}");
}

#[test]
#[cfg_attr(debug_assertions, ignore = "2,000 games: run with --release")]
fn heuristic_peasants_hold_a_random_landlord_to_5_percent() {
    let report = fixed_landlord(["random", "heuristic", "heuristic"], 2_000, 2);
    let rate = landlord_win_rate(&report);
    assert!(rate <= 0.05, "random landlord won {rate}");
}

#[test]
fn heuristic_landlord_beats_random_peasants_in_a_short_run() {
    let report = fixed_landlord(["heuristic", "random", "random"], 200, 3);
    let rate = landlord_win_rate(&report);
    assert!(rate >= 0.88, "heuristic landlord won {rate}");
}

#[test]
fn heuristic_peasants_beat_a_random_landlord_in_a_short_run() {
    let report = fixed_landlord(["random", "heuristic", "heuristic"], 200, 4);
    let rate = landlord_win_rate(&report);
    assert!(rate <= 0.10, "random landlord won {rate}");
}

fn cards(s: &str) -> RankCounts {
    s.parse().expect("rank notation")
}

fn play(s: &str) -> Play {
    s.parse().expect("a play")
}

/// A play-phase view for `seat`, with `history` (plays; `None` a pass) and the play to beat.
fn playing_view(
    seat: Seat,
    landlord: Seat,
    hand: &str,
    hand_sizes: [u32; 3],
    history: &[(Seat, Option<&str>)],
    last: Option<(Seat, &str)>,
) -> View {
    View {
        seat: Some(seat),
        phase: Phase::Playing,
        hand: Some(cards(hand)),
        hand_sizes,
        first_bidder: landlord,
        bids: vec![(landlord, 1)],
        redeals: 0,
        landlord: Some(landlord),
        bid: 1,
        kitty: Some(RankCounts::EMPTY),
        doubling: Doubling::Off,
        show_cards: false,
        doubles: [0; 3],
        shown: None,
        history: history.iter().map(|&(s, p)| (s, p.map(play))).collect(),
        last: last.map(|(s, p)| (s, play(p))),
        to_act: Some(seat),
        multiplier: 1,
        winner: None,
        scores: None,
        spring: false,
        anti_spring: false,
        revealed: None,
        suits: Default::default(),
    }
}

/// The legal actions of a play-phase view: a pass first when following, then the plays.
fn legal_actions(view: &View) -> Vec<Action> {
    let last = view.last.map(|(_, p)| p);
    let mut plays = Vec::new();
    legal_plays(view.hand.unwrap_or_default(), last, &mut plays);
    last.map(|_| Action::Pass)
        .into_iter()
        .chain(plays.into_iter().map(Action::Play))
        .collect()
}

/// What a fresh heuristic bot does in `view`.
fn choice(view: &View) -> Action {
    let legal = legal_actions(view);
    let seat = view.seat.expect("a player's view");
    HeuristicBot::new(&Seed::from_u64(0)).act(&Decision::from_view(view, seat, &legal))
}

/// What a fresh heuristic bot bids with `hand` after `bids`.
fn bid(hand: &str, bids: &[(Seat, u8)]) -> Action {
    let seat = bids.len();
    let highest = bids.iter().map(|&(_, b)| b).max().unwrap_or(0);
    let mut view = playing_view(seat, 0, hand, [17, 17, 17], &[], None);
    view.phase = Phase::Bidding;
    view.first_bidder = 0;
    view.bids = bids.to_vec();
    view.landlord = None;
    view.kitty = None;
    view.bid = 0;
    let legal: Vec<Action> = std::iter::once(0)
        .chain(highest + 1..=3)
        .map(Action::Bid)
        .collect();
    HeuristicBot::new(&Seed::from_u64(0)).act(&Decision::from_view(&view, seat, &legal))
}

#[test]
fn every_choice_is_legal_over_whole_games_with_bidding() {
    let opts = SimOptions {
        config: serde_json::Value::Null,
        bots: vec!["heuristic".into(), "heuristic".into(), "heuristic".into()],
        games: 300,
        first: 0,
        seed: 5,
        threads: 2,
        rotate: true,
        duplicate: false,
    };
    let report = run::<DouDizhu>(&opts).expect("every action applied was legal");
    assert_eq!(report.games, 300);
}

proptest! {
    /// Any hand facing any play of the unseen cards (or leading): the answer is legal.
    #[test]
    fn every_choice_is_legal_in_arbitrary_positions(
        deal in 0u64..1_000_000,
        hand_len in 1usize..=20,
        pick in 0usize..10_000,
        lead in any::<bool>(),
    ) {
        let mut ranks: Vec<cards::Rank> = cards::Deck::WITH_JOKERS
            .cards()
            .iter()
            .map(|c| c.rank())
            .collect();
        game::deal::shuffle(&mut ranks, &mut Seed::from_u64(deal).rng());
        let hand = RankCounts::from_ranks(ranks[..hand_len].iter().copied());
        let others = RankCounts::from_ranks(ranks[hand_len..].iter().copied());
        let mut replies = Vec::new();
        legal_plays(others, None, &mut replies);
        let last = (!lead).then(|| replies[pick % replies.len()]);
        let mut view = playing_view(1, 0, "3", [20, hand_len as u32, 17], &[], None);
        view.hand = Some(hand);
        view.last = last.map(|p| (0, p));
        let legal = legal_actions(&view);
        let action = HeuristicBot::new(&Seed::from_u64(deal))
            .act(&Decision::from_view(&view, 1, &legal));
        prop_assert!(legal.contains(&action), "{action:?} is not legal");
    }
}

#[test]
fn goes_out_when_the_hand_is_one_play() {
    let view = playing_view(0, 0, "8 8 8 9 9", [5, 10, 10], &[], None);
    assert_eq!(choice(&view), Action::Play(play("8 8 8 9 9")));
}

#[test]
fn follows_with_the_whole_hand_to_go_out() {
    let view = playing_view(
        1,
        0,
        "K K",
        [12, 2, 9],
        &[(0, Some("Q Q"))],
        Some((0, "Q Q")),
    );
    assert_eq!(choice(&view), Action::Play(play("K K")));
}

#[test]
fn leads_the_unbeatable_group_first_when_two_moves_remain() {
    // The rocket cannot be beaten; after it wins the round the pair goes out.
    let view = playing_view(0, 0, "4 4 BJ RJ", [4, 10, 10], &[], None);
    assert_eq!(choice(&view), Action::Play(play("BJ RJ")));
}

#[test]
fn leads_a_low_group_and_keeps_the_control_cards() {
    let view = playing_view(0, 0, "3 6 6 9 9 9 J 2 2 BJ", [10, 17, 17], &[], None);
    let Action::Play(p) = choice(&view) else {
        panic!("a lead is a play")
    };
    assert!(
        !p.cards().contains(cards("2")) && !p.cards().contains(cards("BJ")),
        "led {p} and gave up a control card"
    );
}

#[test]
fn follows_with_a_group_of_the_plan_rather_than_breaking_one() {
    // 7 beats 5 without breaking the pair of 8s or the trio of 10s.
    let view = playing_view(
        0,
        0,
        "7 8 8 10 10 10 K",
        [7, 10, 10],
        &[(1, Some("5"))],
        Some((1, "5")),
    );
    assert_eq!(choice(&view), Action::Play(play("7")));
}

#[test]
fn peasant_does_not_overtake_the_partner() {
    // Seat 1 (a peasant) played an ace; seat 2, its partner, could beat it with a 2.
    let view = playing_view(
        2,
        0,
        "4 4 6 9 J 2 2",
        [15, 12, 7],
        &[(0, Some("5")), (1, Some("A"))],
        Some((1, "A")),
    );
    assert_eq!(choice(&view), Action::Pass);
}

#[test]
fn peasant_blocks_its_partner_when_the_landlord_could_go_out_next() {
    // The landlord (seat 0, next to act) holds one card and could beat the partner's 6.
    let view = playing_view(
        2,
        0,
        "4 4 9 Q 2",
        [1, 8, 5],
        &[(1, Some("6"))],
        Some((1, "6")),
    );
    assert_eq!(choice(&view), Action::Play(play("2")));
}

#[test]
fn peasant_stops_a_landlord_with_one_card_left() {
    // The landlord played a 9 and holds one card: beat it as high as possible, not pass.
    let view = playing_view(
        1,
        0,
        "4 5 5 10 K 2",
        [1, 6, 10],
        &[(0, Some("9"))],
        Some((0, "9")),
    );
    assert_eq!(choice(&view), Action::Play(play("2")));
}

#[test]
fn peasant_does_not_lead_a_solo_into_a_landlord_with_one_card() {
    let view = playing_view(1, 0, "3 5 5 8 J J K", [1, 7, 9], &[], None);
    let Action::Play(p) = choice(&view) else {
        panic!("a lead is a play")
    };
    assert_ne!(
        p.size(),
        1,
        "led the solo {p} into a landlord with one card"
    );
}

#[test]
fn landlord_does_not_lead_a_pair_into_a_peasant_with_two_cards() {
    let view = playing_view(0, 0, "4 4 6 6 6 9 Q", [7, 2, 12], &[], None);
    let Action::Play(p) = choice(&view) else {
        panic!("a lead is a play")
    };
    assert_ne!(p.kind(), doudizhu::Kind::Pair, "led the pair {p}");
}

#[test]
fn peasant_feeds_a_partner_with_one_card() {
    // Seat 1 leads, its partner (seat 2) acts next with one card: lead the lowest card.
    let view = playing_view(1, 0, "4 7 7 9 9 9 K A", [12, 8, 1], &[], None);
    assert_eq!(choice(&view), Action::Play(play("4")));
}

#[test]
fn bids_3_with_the_rocket_and_a_bomb() {
    assert_eq!(
        bid("3 4 5 6 7 7 7 7 9 10 J Q 2 2 A BJ RJ", &[]),
        Action::Bid(3)
    );
}

#[test]
fn bids_0_with_a_weak_hand() {
    assert_eq!(
        bid("3 3 4 5 6 6 7 8 8 9 10 J J Q K K A", &[(0, 1)]),
        Action::Bid(0)
    );
}

#[test]
fn outbids_a_2_with_a_strong_hand() {
    assert_eq!(
        bid("3 3 3 3 5 6 7 8 9 J Q K A 2 2 BJ RJ", &[(0, 2)]),
        Action::Bid(3)
    );
}

#[test]
fn declines_rather_than_matching_the_highest_bid() {
    // Worth a 1: with a 1 already bid, a 1 is illegal and the bot declines.
    let hand = "3 4 5 6 7 8 8 9 9 9 10 J Q K A A 2";
    assert_eq!(bid(hand, &[]), Action::Bid(1));
    assert_eq!(bid(hand, &[(0, 1)]), Action::Bid(0));
}

#[test]
fn peasant_bombs_a_landlord_about_to_go_out() {
    // Only the bomb beats the aces, and the landlord has two cards left.
    let view = playing_view(
        1,
        0,
        "3 5 5 5 5 8",
        [2, 6, 10],
        &[(0, Some("A A"))],
        Some((0, "A A")),
    );
    assert_eq!(choice(&view), Action::Play(play("5 5 5 5")));
}

#[test]
fn keeps_the_bomb_when_no_one_is_close_to_going_out() {
    let view = playing_view(
        1,
        0,
        "3 5 5 5 5 8 J Q",
        [15, 8, 10],
        &[(0, Some("A A"))],
        Some((0, "A A")),
    );
    assert_eq!(choice(&view), Action::Pass);
}

#[test]
fn bombs_when_the_rest_of_the_hand_then_goes_out() {
    // After the bomb wins the round, 9 9 9 8 goes out in one play.
    let view = playing_view(
        0,
        0,
        "8 9 9 9 J J J J",
        [8, 12, 12],
        &[(1, Some("2"))],
        Some((1, "2")),
    );
    assert_eq!(choice(&view), Action::Play(play("J J J J")));
}

#[test]
fn peasant_tops_up_a_low_partner_lead_before_the_landlord() {
    // The partner led a 5 and the landlord (next, many cards) would take it cheaply: the
    // lone 10, a group the plan holds anyway, goes on top. The 2 stays.
    let view = playing_view(
        2,
        0,
        "3 3 10 Q Q Q 2",
        [15, 12, 7],
        &[(1, Some("5"))],
        Some((1, "5")),
    );
    assert_eq!(choice(&view), Action::Play(play("10")));
}

#[test]
fn peasant_lets_the_partner_play_stand_when_the_landlord_has_passed() {
    // Seat 2 led a 5, the landlord passed: seat 1 passes too and its partner leads next.
    let view = playing_view(
        1,
        0,
        "3 3 10 Q Q Q 2",
        [15, 7, 12],
        &[(2, Some("5")), (0, None)],
        Some((2, "5")),
    );
    assert_eq!(choice(&view), Action::Pass);
}
