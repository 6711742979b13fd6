//! The counting bot's reading of a table: exact odds from the unseen cards, and the showdown.

use crate::common;

use common::{act, game};
use game::Viewer;
use tenhalf::bots::CountingBot;
use tenhalf::{Action, View};

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

#[test]
fn counting_odds_come_from_the_exact_unseen_cards() {
    // Seat 1 holds Ts: 53 cards are unseen (seat 0's face-down card among them); the 14
    // half-point cards make 10½, the other 39 bust.
    let s = game(2, 0, "Ts 5h");
    let e = CountingBot::estimate(&View::of(&s, Viewer::Seat(1))).unwrap();
    assert!(close(e.ten_and_a_half, 14.0 / 53.0), "{e:?}");
    assert!(close(e.bust, 39.0 / 53.0), "{e:?}");
    assert_eq!(e.five_dragon, 0.0);

    // Cards shown in a bust leave the count: after Ts 3c busts and Kd Qd Jd follow, 49
    // cards are unseen. From 1½, a 9 makes 10½ (4 of 49) and only the three other tens bust.
    let mut s = game(2, 0, "Ts 5h 3c Kd Qd Jd");
    act(&mut s, 1, Action::Hit); // Ts 3c: 13, bust; new base Kd
    act(&mut s, 1, Action::Hit); // Kd Qd: 1
    act(&mut s, 1, Action::Hit); // Kd Qd Jd: 1½
    let view = View::of(&s, Viewer::Seat(1));
    let e = CountingBot::estimate(&view).unwrap();
    assert!(close(e.ten_and_a_half, 4.0 / 49.0), "{e:?}");
    assert!(close(e.bust, 3.0 / 49.0), "{e:?}");
    // 1½ loses to any hand that stands; only a player out of the round on the deck's last
    // card would spare it.
    assert!(e.lose_showdown > 0.99, "{e:?}");
    assert_eq!(CountingBot::choose(&view), Action::Hit);
}

#[test]
fn counting_five_dragon_odds_on_the_fourth_card() {
    // Seat 1: Ad 2d 3d 2c = 8 in four cards. 50 cards are unseen; a fifth card of 2½ or less
    // wins as 五龙: ½ ×14, A ×3, 2 ×2 = 19 cards. The other 31 bust; none makes 10½ exactly
    // with four cards (2½ is no card's value).
    let mut s = game(2, 0, "Ad 5h 2d 3d 2c");
    for _ in 0..3 {
        act(&mut s, 1, Action::Hit);
    }
    assert_eq!(s.hand(1).unwrap().total(), 16);
    let e = CountingBot::estimate(&View::of(&s, Viewer::Seat(1))).unwrap();
    assert!(close(e.five_dragon, 19.0 / 50.0), "{e:?}");
    assert!(close(e.bust, 31.0 / 50.0), "{e:?}");
    assert_eq!(e.ten_and_a_half, 0.0);
}

#[test]
fn counting_knows_the_last_player_alone_loses_the_showdown() {
    // Seat 1 wins with 10½; the dealer, seat 0, stands alone on 9: a sure loss of 2 + 2.
    let mut s = game(2, 0, "Ts 9h Kd");
    act(&mut s, 1, Action::Hit);
    let e = CountingBot::estimate(&View::of(&s, Viewer::Seat(0))).unwrap();
    assert!(close(e.lose_showdown, 1.0), "{e:?}");
    assert!(close(e.stand_cost, 4.0), "{e:?}");
    // Hitting from 9 wins only with a ½ (10½ needs 1½, no card) or goes on with an A;
    // everything else busts for 2 and starts again, still alone: dearer than 4.
    assert!(e.hit_cost > e.stand_cost, "{e:?}");
    assert_eq!(
        CountingBot::choose(&View::of(&s, Viewer::Seat(0))),
        Action::Stand
    );
}

#[test]
fn counting_sees_a_sure_win_over_a_lower_visible_hand() {
    // Seat 1 stood on its base card alone, so it holds 8, 9 or 10. The dealer, seat 0, holds
    // T♠: 10 in one card beats any 8 or 9, and any other ten on the best card.
    let mut s = game(2, 0, "9h Ts");
    act(&mut s, 1, Action::Stand);
    let e = CountingBot::estimate(&View::of(&s, Viewer::Seat(0))).unwrap();
    assert!(close(e.lose_showdown, 0.0), "{e:?}");
    assert_eq!(
        CountingBot::choose(&View::of(&s, Viewer::Seat(0))),
        Action::Stand
    );
}
