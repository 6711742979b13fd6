//! The judge: every op, through the registry as the `qipai` binary calls it, including
//! malformed requests.

use doudizhu5::DouDizhu5;
use game::{registry, GameSpec};
use serde_json::{json, Value};

fn ask(req: Value) -> Value {
    let direct = DouDizhu5::judge(&req);
    assert_eq!(registry::entry::<DouDizhu5>().judge(&req), direct);
    direct
}

#[test]
fn classify_names_kind_rank_and_length() {
    assert_eq!(
        ask(json!({"op":"classify","cards":"3 3 3 4 4"})),
        json!({"ok":true,"kind":"trio_pair","rank":"3","len":1})
    );
    assert_eq!(
        ask(json!({"op":"classify","cards":"A 2 3 4 5"})),
        json!({"ok":true,"kind":"straight","rank":"A","len":5})
    );
    assert_eq!(
        ask(json!({"op":"classify","cards":"2 2 2 3 3 3 BJ BJ RJ RJ"})),
        json!({"ok":true,"kind":"plane","rank":"2","len":2})
    );
    assert_eq!(
        ask(json!({"op":"classify","cards":"BJ BJ RJ RJ"})),
        json!({"ok":true,"kind":"joker_bomb","rank":"RJ","len":4})
    );
    assert_eq!(
        ask(json!({"op":"classify","cards":"9 9 9 9 9 9"})),
        json!({"ok":true,"kind":"bomb","rank":"9","len":6})
    );
    assert_eq!(
        ask(json!({"op":"classify","cards":"A A A 2 2 2"})),
        json!({"ok":true,"kind":null})
    );
    assert_eq!(
        ask(json!({"op":"classify","cards":"33344"}))["kind"],
        json!("trio_pair")
    );
}

#[test]
fn beats_follows_the_seed_orderings() {
    let beats = |play: &str, last: &str| {
        ask(json!({"op":"beats","play":play,"last":last}))["beats"].clone()
    };
    assert_eq!(beats("BJ BJ BJ", "2 2 2 2"), json!(true));
    assert_eq!(beats("BJ BJ BJ RJ RJ RJ", "3 3 3 3 3"), json!(false));
    assert_eq!(
        beats("2 2 2 3 3 3 8 8 9 9", "K K K A A A 2 2 3 3"),
        json!(true)
    );
    assert_eq!(beats("4 4", "3"), json!(false));
    assert_eq!(beats("3 4", "3"), json!(false), "a non-play beats nothing");
    // With nothing to beat, any play may be played (docs/judge.md: `last`).
    assert_eq!(beats("3", "pass"), json!(true));
    assert_eq!(
        ask(json!({"op":"beats","play":"3"})),
        json!({"ok":true,"beats":true})
    );
    assert_eq!(
        beats("3 4", ""),
        json!(false),
        "a non-play does not even lead"
    );
}

#[test]
fn legal_lists_each_play_once_and_pass_when_following() {
    let lead = ask(json!({"op":"legal","hand":"3 3 4"}));
    assert_eq!(lead, json!({"ok":true,"plays":["3","4","3 3"]}));
    let follow = ask(json!({"op":"legal","hand":"3 3 4 BJ BJ BJ","last":"2"}));
    assert_eq!(follow, json!({"ok":true,"plays":["BJ","BJ BJ BJ","pass"]}));
    let hand = "3 3 3 4 4 4 5 5 5 6 6 7 7 8 8 9 9 T T J J Q Q K K A A 2 2 2 2 BJ BJ RJ RJ RJ 9 9";
    let n = ask(json!({"op":"count","hand":hand}))["count"]
        .as_u64()
        .unwrap();
    let list = ask(json!({"op":"legal","hand":hand}))["plays"]
        .as_array()
        .unwrap()
        .len() as u64;
    assert_eq!(n, list);
    let mut seen: Vec<String> = ask(json!({"op":"legal","hand":hand}))["plays"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len() as u64, n, "each play once");
    let n_follow = ask(json!({"op":"count","hand":hand,"last":"3 4 5 6 7"}))["count"].as_u64();
    let l_follow = ask(json!({"op":"legal","hand":hand,"last":"3 4 5 6 7"}))["plays"]
        .as_array()
        .map(|a| a.len() as u64);
    assert_eq!(n_follow, l_follow);
}

#[test]
fn grabs_lists_each_click_strongest_card_first() {
    assert_eq!(
        ask(json!({"op":"grabs","hand":"9h 9h 9h 9c RJ RJ 9s 9s 3d 3d","face_up":"9d"})),
        json!({"ok":true,"grabs":["RJ RJ","9s 9s","9h 9h","9h 9h 9h"]})
    );
    assert_eq!(
        ask(json!({"op":"grabs","hand":"9s 9c BJ","face_up":"9h"})),
        json!({"ok":true,"grabs":[]})
    );
}

#[test]
fn declare_reports_instant_wins_or_the_declarations() {
    let ok = "3d 3d 4h 4h 4h 5c 5d 5h 5s 6c 7c 8c 9c Tc Jc Qc Kc Ac 2c 6d 7d 8d 9d Td Jd Qd Kd Ad 2d 6h 7h 8h 9h Th Jh Qh Kh Ah";
    assert_eq!(
        ask(json!({"op":"declare","hand":ok})),
        json!({"ok":true,"instant_win":null,"declarations":[
            {"mode":"open_solo","marked":null},
            {"mode":"hidden_solo","marked":"4h"},
            {"mode":"partner","marked":"3d"}
        ]})
    );
    let no_bomb = "3d 3d 4h 4h 4c 5c 5d 5h 6s 6c 6d 7c 7d 7h 8c 8d 8h 9c 9d 9h Tc Td Th Jc Jd Jh Qc Qd Qh Kc Kd Kh Ac Ad Ah 2c 2d 2h";
    assert_eq!(
        ask(json!({"op":"declare","hand":no_bomb}))["instant_win"],
        json!("no_bomb")
    );
    let short = ask(json!({"op":"declare","hand":"3d 3d"}));
    assert_eq!(short["ok"], json!(false));
}

#[test]
fn score_applies_the_floor_and_the_open_solo_double() {
    assert_eq!(
        ask(json!({"op":"score","multiplier":6,"base":1,"mode":"partner","landlord_won":true})),
        json!({"ok":true,"landlord":12,"partner":6,"opponent":-6})
    );
    assert_eq!(
        ask(json!({"op":"score","multiplier":0,"base":1,"mode":"open_solo","landlord_won":true})),
        json!({"ok":true,"landlord":8,"partner":null,"opponent":-2})
    );
    assert_eq!(
        ask(
            json!({"op":"score","multiplier":3,"base":2,"mode":"hidden_solo","landlord_won":false})
        ),
        json!({"ok":true,"landlord":-24,"partner":null,"opponent":6})
    );
    assert_eq!(
        ask(json!({"op":"score","multiplier":2,"base":1,"mode":"instant","landlord_won":true})),
        json!({"ok":true,"landlord":8,"partner":null,"opponent":-2})
    );
}

#[test]
fn malformed_requests_answer_ok_false() {
    for req in [
        json!("classify"),
        json!({"cards":"3"}),
        json!({"op":"fly"}),
        json!({"op":"classify"}),
        json!({"op":"classify","cards":7}),
        json!({"op":"classify","cards":"3h"}),
        json!({"op":"classify","cards":"X"}),
        json!({"op":"classify","cards":"RJ RJ RJ RJ"}),
        json!({"op":"classify","cards":"3 3 3 3 3 3 3 3 3 3 3 3 3"}),
        json!({"op":"beats","play":"3","last":"3 4"}),
        json!({"op":"legal"}),
        json!({"op":"legal","hand":"3 3","last":"BJ RJ"}),
        json!({"op":"count","hand":"Z"}),
        json!({"op":"grabs","hand":"9h 9h"}),
        json!({"op":"grabs","hand":"9h 9h 9h 9h","face_up":"9h"}),
        json!({"op":"grabs","hand":"9 9","face_up":"9h"}),
        json!({"op":"declare"}),
        json!({"op":"score","multiplier":-1,"mode":"partner","landlord_won":true}),
        json!({"op":"score","multiplier":1,"mode":"duet","landlord_won":true}),
        json!({"op":"score","multiplier":1,"mode":"partner"}),
    ] {
        let a = ask(req.clone());
        assert_eq!(a["ok"], json!(false), "{req} -> {a}");
        assert!(a["error"].as_str().is_some_and(|e| !e.is_empty()));
    }
}

#[test]
fn score_refuses_grab_counts_no_game_reaches() {
    let at = |m: u64| {
        ask(json!({"op":"score","multiplier":m,"base":1,"mode":"open_solo","landlord_won":true}))
    };
    assert_eq!(
        at(12),
        json!({"ok":true,"landlord":96,"partner":null,"opponent":-24})
    );
    for m in [13, 1_000_000, u64::MAX] {
        let a = at(m);
        assert_eq!(a["ok"], json!(false), "{m}: {a}");
        assert!(
            a["error"]
                .as_str()
                .unwrap_or_default()
                .contains("at most 12"),
            "{a}"
        );
    }
    let huge_base = ask(
        json!({"op":"score","multiplier":12,"base":u64::MAX,"mode":"partner",
        "landlord_won":true}),
    );
    assert_eq!(huge_base["ok"], json!(false), "{huge_base}");
}

#[test]
fn act_asks_a_bot_for_a_legal_move_in_every_phase_from_a_seats_view() {
    use game::{Decision, Rules, ToAct, Viewer};
    let mut phases = std::collections::BTreeSet::new();
    for i in 0..6u64 {
        let seed = game::Seed::from_u64(80).derive(i);
        let mut state = DouDizhu5::start(&Default::default(), 5, &seed).expect("a deal");
        let mut heuristic = DouDizhu5::bot("heuristic", &seed).expect("heuristic");
        for step in 0..400 {
            let seat = match DouDizhu5::to_act(&state) {
                ToAct::Finished => break,
                ToAct::Seat(s) => s,
                ToAct::Seats(set) => set.iter().next().expect("a seat"),
            };
            let legal = DouDizhu5::legal(&state, seat);
            let view = DouDizhu5::view(&state, Viewer::Seat(seat));
            if step % 7 == 0 || view.phase != doudizhu5::Phase::Play {
                let json_view = serde_json::to_value(&view).expect("a view");
                for bot in ["random", "heuristic"] {
                    let a =
                        ask(json!({"op":"act","bot":bot,"seat":seat,"view":json_view,"seed":step}));
                    assert_eq!(a["ok"], json!(true), "{bot}: {a}");
                    let action: doudizhu5::Action =
                        serde_json::from_value(a["action"].clone()).expect("an action");
                    assert!(legal.contains(&action), "{bot} chose {action:?}");
                }
                phases.insert(format!("{:?}", view.phase));
            }
            let action = heuristic.act(&Decision::from_state(&state, seat, &legal));
            DouDizhu5::apply(&mut state, seat, action, &mut Vec::new()).expect("legal");
        }
    }
    assert!(phases.len() >= 2, "phases asked: {phases:?}");
    let refused = ask(json!({"op":"act","bot":"heuristic","seat":0,"view":{}}));
    assert_eq!(refused["ok"], json!(false));
}
