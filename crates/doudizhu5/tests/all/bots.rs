//! The heuristic bot's behaviour: it grabs with strong hands only, declares open solo only
//! with a dominant hand, and never spends a bomb (or a beat) on a known teammate.

use crate::common;

use common::{act, deal, decline_all, partner_deal, start};
use doudizhu5::bots::HeuristicBot;
use doudizhu5::declare::Mode;
use doudizhu5::{Action, DouDizhu5, State};
use game::{Bot, Decision, Rules, Seat};

fn heuristic(state: &State, seat: Seat) -> Action {
    let legal = DouDizhu5::legal(state, seat);
    HeuristicBot.act(&Decision::from_state(state, seat, &legal))
}

/// Seat 0 holds every joker and eight 2s; seat 1 only a pair of 2♠ to grab with. A low
/// kitty keeps the landlord clear of the ten-card bomb's instant win.
fn strong_and_weak() -> doudizhu5::Config {
    deal(
        [
            "RJ RJ RJ BJ BJ BJ 2h 2h 2h 2c 2c 2c 2d 2d Ad Ad Ad Ac Ac Ac",
            "2s 2s 3d 3c 4h 5s 6d 7c 8h 9s",
            "",
            "",
            "",
        ],
        "3d 4d 5d 6d 7d 8d 9d",
        ("2s", 1),
    )
}

#[test]
fn heuristic_grabs_with_a_strong_hand_and_declines_with_a_weak_one() {
    let s = start(&strong_and_weak());
    assert!(matches!(heuristic(&s, 0), Action::Grab(_)));
    assert_eq!(heuristic(&s, 1), Action::Decline);
}

#[test]
fn heuristic_declares_open_solo_only_with_a_dominant_hand() {
    let mut s = start(&strong_and_weak());
    while let Some(seat) = DouDizhu5::to_act(&s).seats().iter().next() {
        if s.phase() != doudizhu5::Phase::Grab {
            break;
        }
        let a = heuristic(&s, seat);
        act(&mut s, seat, a);
    }
    assert_eq!(s.landlord(), Some(0));
    assert_eq!(heuristic(&s, 0), Action::Declare(Mode::OpenSolo));

    let mut weak = start(&partner_deal());
    decline_all(&mut weak);
    assert_eq!(heuristic(&weak, 0), Action::Declare(Mode::Partner));
}

#[test]
fn heuristic_lets_a_revealed_partner_win_the_trick() {
    let mut s = start(&partner_deal());
    decline_all(&mut s);
    act(&mut s, 0, Action::Declare(Mode::Partner));
    act(&mut s, 0, "A 2 3 4 5".parse().map(Action::Play).unwrap());
    act(&mut s, 1, Action::Pass);
    act(&mut s, 2, Action::Pass);
    act(&mut s, 3, "3 4 5 6 7".parse().map(Action::Play).unwrap());
    act(&mut s, 4, Action::Pass);
    assert_eq!(s.partner(), Some(3));
    // The landlord holds bombs (five 5s at least) but the play is the partner's.
    assert_eq!(heuristic(&s, 0), Action::Pass);
}

#[test]
fn heuristic_never_passes_on_a_lead_and_goes_out_when_it_can() {
    let mut s = start(&partner_deal());
    decline_all(&mut s);
    act(&mut s, 0, Action::Declare(Mode::Partner));
    let lead = heuristic(&s, 0);
    assert!(matches!(lead, Action::Play(_)), "{lead:?}");
}
