//! The bots with 加倍 and 明牌 on: they double by their own estimate of winning, a
//! landlord shows only a very strong hand, and the search bot decides as the heuristic.

use crate::doubling::{ok, rc, seat_2_landlord_at_3, table};
use doudizhu::bots::{by_name, HeuristicBot};
use doudizhu::{Action, Config, DouDizhu, Doubling, Phase};
use game::{Bot, Decision, Rules, Seed, ToAct, Viewer};

fn heuristic_choice(state: &doudizhu::State, seat: usize) -> Action {
    let view = DouDizhu::view(state, Viewer::Seat(seat));
    let legal = DouDizhu::legal(state, seat);
    HeuristicBot::new(&Seed::from_u64(0)).act(&Decision::from_view(&view, seat, &legal))
}

#[test]
fn bots_a_landlord_with_the_rocket_and_bombs_super_doubles_and_shows() {
    let mut s = table(Doubling::Super, true);
    seat_2_landlord_at_3(&mut s);
    ok(&mut s, 0, Action::Double(1));
    ok(&mut s, 1, Action::Double(1));
    assert_eq!(heuristic_choice(&s, 2), Action::Double(4));
    ok(&mut s, 2, Action::Double(4));
    assert_eq!(heuristic_choice(&s, 2), Action::Show(true));
    // Where the table offers no super doubling, the same hand doubles.
    let mut s = table(Doubling::Double, false);
    seat_2_landlord_at_3(&mut s);
    ok(&mut s, 0, Action::Double(1));
    ok(&mut s, 1, Action::Double(1));
    assert_eq!(heuristic_choice(&s, 2), Action::Double(2));
}

#[test]
fn bots_a_weak_hand_neither_doubles_nor_shows() {
    let mut s = table(Doubling::Super, true);
    seat_2_landlord_at_3(&mut s);
    let legal = DouDizhu::legal(&s, 0);
    let mut view = DouDizhu::view(&s, Viewer::Seat(0));
    view.hand = Some(rc("3 3 4 4 5 6 7 8 9 T J Q K 5 6 8 9"));
    let mut bot = HeuristicBot::new(&Seed::from_u64(0));
    assert_eq!(
        bot.act(&Decision::from_view(&view, 0, &legal)),
        Action::Double(1)
    );
    for seat in [0, 1, 2] {
        ok(&mut s, seat, Action::Double(1));
    }
    let legal = DouDizhu::legal(&s, 2);
    let mut view = DouDizhu::view(&s, Viewer::Seat(2));
    view.hand = Some(rc("3 3 4 4 5 6 7 8 9 T J Q K 5 6 8 9 T J K"));
    assert_eq!(
        bot.act(&Decision::from_view(&view, 2, &legal)),
        Action::Show(false)
    );
}

#[test]
fn bots_the_search_bot_doubles_and_shows_as_the_heuristic_does() {
    let config = Config {
        doubling: Doubling::Super,
        show_cards: true,
        ..Config::default()
    };
    let mut compared = 0;
    for g in 0..20 {
        let seed = Seed::from_u64(40).derive(g);
        let mut s = DouDizhu::start(&config, 3, &seed).unwrap();
        let mut search = by_name("search:fast", &seed).unwrap();
        while let ToAct::Seat(seat) = DouDizhu::to_act(&s) {
            if s.phase() == Phase::Playing {
                break;
            }
            let legal = DouDizhu::legal(&s, seat);
            let view = DouDizhu::view(&s, Viewer::Seat(seat));
            let action = if s.phase() == Phase::Bidding {
                legal[0]
            } else {
                let mine = search.act(&Decision::from_view(&view, seat, &legal));
                assert_eq!(mine, heuristic_choice(&s, seat), "game {g}, seat {seat}");
                compared += 1;
                mine
            };
            DouDizhu::apply(&mut s, seat, action, &mut Vec::new()).unwrap();
        }
    }
    assert!(compared >= 20, "{compared}");
}

/// Heuristic self-play with both options: every game ends, the landlords double some
/// hands and not others, and shows few.
#[test]
fn bots_heuristic_self_play_doubles_some_hands_and_shows_few() {
    let config = Config {
        doubling: Doubling::Super,
        show_cards: true,
        ..Config::default()
    };
    let mut bot = HeuristicBot::new(&Seed::from_u64(0));
    let (mut games, mut landlord_doubled, mut shown) = (0, 0, 0);
    for g in 0..400 {
        let mut s = DouDizhu::start(&config, 3, &Seed::from_u64(41).derive(g)).unwrap();
        let mut legal = Vec::new();
        while let ToAct::Seat(seat) = DouDizhu::to_act(&s) {
            legal.clear();
            DouDizhu::legal_into(&s, seat, &mut legal);
            let view = DouDizhu::view(&s, Viewer::Seat(seat));
            let a = bot.act(&Decision::from_view(&view, seat, &legal));
            DouDizhu::apply(&mut s, seat, a, &mut Vec::new()).unwrap();
        }
        let o = DouDizhu::outcome(&s).expect("every game ends");
        assert_eq!(o.scores.iter().sum::<i64>(), 0);
        games += 1;
        let l = s.landlord().unwrap();
        landlord_doubled += usize::from(s.doubles()[l] > 1);
        shown += usize::from(s.shown());
    }
    assert!(
        (games / 10..games * 9 / 10).contains(&landlord_doubled),
        "{landlord_doubled} of {games} landlords doubled"
    );
    assert!(shown < games / 10, "{shown} of {games} landlords showed");
}
