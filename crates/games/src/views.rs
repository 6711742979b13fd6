//! Each game's view (the `view` of the protocol's `GameState`) as a JSON Schema, for the
//! protocol's schema (`server::protocol::schema`, docs/protocol.schema.json).
//!
//! The server passes a game's view on as the game made it, without reading it, so the
//! server's types cannot describe it; these schemas are written by hand from the games' view
//! types, and kept honest by the hall's tests: their client checks every view it receives
//! against its game's schema (every field required, no field unknown), and a test checks
//! that docs/protocol.md explains every field of every game.

use serde_json::{json, Value};

/// The games' view schemas, by game id.
pub fn view_schemas() -> Value {
    json!({
        "doudizhu": doudizhu(),
        "doudizhu5": doudizhu5(),
        "bigtwo": bigtwo(),
        "tenhalf": tenhalf(),
        "gomoku": gomoku(),
    })
}

/// An object with exactly these fields, all present (a field with no value is `null`).
fn object(description: &str, fields: &[(&str, Value)]) -> Value {
    let properties: serde_json::Map<String, Value> = fields
        .iter()
        .map(|(name, schema)| (name.to_string(), schema.clone()))
        .collect();
    let required: Vec<&str> = fields.iter().map(|(name, _)| *name).collect();
    json!({
        "description": description,
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": false,
    })
}

/// `schema` with a description.
fn says(description: &str, schema: Value) -> Value {
    let mut schema = schema;
    if let Some(map) = schema.as_object_mut() {
        map.insert("description".into(), description.into());
    }
    schema
}

/// `schema`, or `null`.
fn or_null(schema: Value) -> Value {
    json!({"anyOf": [schema, {"type": "null"}]})
}

fn uint() -> Value {
    json!({"type": "integer", "minimum": 0})
}

fn int() -> Value {
    json!({"type": "integer"})
}

fn boolean() -> Value {
    json!({"type": "boolean"})
}

fn array(items: Value) -> Value {
    json!({"type": "array", "items": items})
}

/// An array of exactly `n` items.
fn tuple(items: &[Value]) -> Value {
    json!({"type": "array", "prefixItems": items, "items": false, "minItems": items.len()})
}

fn one_of(names: &[&str]) -> Value {
    json!({"type": "string", "enum": names})
}

/// A seat number, from 0.
fn seat() -> Value {
    uint()
}

/// One card: rank then suit letter (`9h`, `Td`, `As`; suits `d` `c` `h` `s`), or a joker
/// (`BJ`, `RJ`).
fn card() -> Value {
    json!({"type": "string", "description": "a card: rank and suit letter (`9h`, `Td`), or a joker (`BJ`, `RJ`)"})
}

/// Cards by rank, without suits, as text (`3 3 4 4`; empty for none).
fn ranks() -> Value {
    json!({"type": "string", "description": "cards by rank, space-separated (`3 3 4 4 BJ`); \"\" for none"})
}

/// A set of suited cards, as text (`3d 3c 9h`; empty for none).
fn cards() -> Value {
    json!({"type": "string", "description": "suited cards, space-separated (`3d 3c 9h`); \"\" for none"})
}

/// Who looks: a seat or a spectator.
fn viewer() -> Value {
    json!({
        "description": "who is looking: `{\"seat\":n}` for a player, `\"spectator\"` for anyone watching",
        "anyOf": [
            {"type": "object", "properties": {"seat": {"type": "integer", "minimum": 0}}, "required": ["seat"], "additionalProperties": false},
            {"const": "spectator"},
        ],
    })
}

fn doudizhu() -> Value {
    object(
        "斗地主 (Dou Dizhu, three players): what one seat, or a spectator, may know.",
        &[
            ("seat", says("the seat looking; null for a spectator", or_null(seat()))),
            ("phase", says("`bidding`, `doubling` (加倍, with the option), `showing` (明牌, with the option), `playing` or `finished`", one_of(&["bidding", "doubling", "showing", "playing", "finished"]))),
            ("hand", says("the viewer's own cards; null for a spectator", or_null(ranks()))),
            ("hand_sizes", says("cards left in each hand, seat 0 first", tuple(&[uint(), uint(), uint()]))),
            ("first_bidder", says("who bid first in this deal", seat())),
            ("bids", says("the bids so far, in order: [seat, bid], 0 for no bid", array(tuple(&[seat(), uint()])))),
            ("redeals", says("how many times in a row the cards were redealt after everyone declined", uint())),
            ("landlord", says("the landlord, once known", or_null(seat()))),
            ("bid", says("the base score (the winning bid), 0 until known", uint())),
            ("kitty", says("the three kitty cards, shown once the landlord is known", or_null(ranks()))),
            ("doubling", says("the table's `doubling` option (加倍): `off`, `double` (×2) or `super` (×2 or ×4)", one_of(&["off", "double", "super"]))),
            ("show_cards", says("the table's `show_cards` option: whether the landlord may show their hand (明牌, ×2)", boolean())),
            ("doubles", says("each seat's doubling, seat 0 first: 1 none, 2 加倍, 4 超级加倍; 0 until chosen, and always 0 without the option", tuple(&[uint(), uint(), uint()]))),
            ("shown", says("the landlord's hand as it is now, once shown (明牌); null otherwise", or_null(ranks()))),
            ("history", says("every play and pass of the play phase, in order: [seat, cards], cards null for a pass", array(tuple(&[seat(), or_null(ranks())])))),
            ("last", says("the play to beat and who made it: [seat, cards]; null when the player to act leads", or_null(tuple(&[seat(), ranks()])))),
            ("to_act", says("whose turn it is; null once over", or_null(seat()))),
            ("multiplier", says("the score multiplier so far, common to both stakes: ×2 for each bomb that doubles and ×2 for a shown hand (a spring doubles it again at the end); each seat's doubling multiplies its stakes on top", int())),
            ("winner", says("who went out, once over", or_null(seat()))),
            ("scores", says("each seat's score change, once over", or_null(tuple(&[int(), int(), int()])))),
            ("spring", says("the landlord won and neither peasant played a card (春天)", boolean())),
            ("anti_spring", says("the peasants won and the landlord played at most once (反春)", boolean())),
            ("revealed", says("every hand, seat 0 first, once the game is over; null before", or_null(tuple(&[ranks(), ranks(), ranks()])))),
            ("suits", says("the same cards with their suits, for people to see (the rules ignore suits; kitty copies are played first, then the hand's in a secret order)", object("suited cards", &[
                ("hand", says("the viewer's own hand; null for a spectator", or_null(cards()))),
                ("kitty", says("the kitty, once the landlord is known", or_null(cards()))),
                ("shown", says("the landlord's shown hand (明牌); null otherwise", or_null(cards()))),
                ("plays", says("the cards of each entry of `history`, in order; null for a pass", array(or_null(cards())))),
                ("revealed", says("every hand, seat 0 first, once the game is over", or_null(tuple(&[cards(), cards(), cards()])))),
            ]))),
        ],
    )
}

fn doudizhu5() -> Value {
    let mode = one_of(&["open_solo", "hidden_solo", "partner"]);
    let kinds = one_of(&[
        "solo",
        "pair",
        "trio",
        "trio_pair",
        "straight",
        "pair_chain",
        "trio_chain",
        "plane",
        "bomb",
        "joker_bomb",
    ]);
    object(
        "五人斗地主 (five-player Dou Dizhu): what one seat, or a spectator, may know. Until the marked card is played only the landlord knows whether it hides a partner call or a hidden solo.",
        &[
            ("viewer", viewer()),
            ("phase", says("`grab`, `declare`, `play` or `finished`", one_of(&["grab", "declare", "play", "finished"]))),
            ("hand", says("the viewer's own cards, ascending; null for a spectator", or_null(array(card())))),
            ("hand_sizes", says("every seat's number of cards", array(uint()))),
            ("face_up", says("the face-up card (明牌)", card())),
            ("face_up_holder", says("who holds the face-up card", seat())),
            ("shown", says("by seat, the sets each has shown in the grab: {card, count} with count 2 (a pair) or 3 (the triple)", array(array(object("a set shown", &[("card", card()), ("count", uint())]))))),
            ("grabbing", says("the seats still deciding in the grab", array(seat()))),
            ("can_grab", says("the viewer's cards it may still grab with", array(card()))),
            ("grabs", says("grabs so far", uint())),
            ("multiplier", says("the grabs (at least 1), doubled for an open solo", uint())),
            ("base", says("the table's base score", uint())),
            ("grab_seconds", says("the grab window, in seconds", uint())),
            ("declare_seconds", says("the time to declare, in seconds", uint())),
            ("landlord", says("the landlord (正地主), once known", or_null(seat()))),
            ("kitty", says("the seven kitty cards the landlord took: the landlord's alone while the game is played, everyone's once it is over; null otherwise", or_null(array(card())))),
            ("declaration", says("the declaration as everyone sees it, once made", or_null(object("the landlord's declaration", &[
                ("open_solo", says("an open solo (明独打, one against four)", boolean())),
                ("marked", says("the marked card of a hidden solo or a partner call; null for an open solo", or_null(card()))),
            ])))),
            ("options", says("the landlord's own choices while declaring (landlord only): [mode, marked card]", array(tuple(&[mode.clone(), or_null(card())])))),
            ("my_mode", says("the landlord's actual mode (landlord only): `open_solo`, `hidden_solo` or `partner`", or_null(mode))),
            ("partner", says("the partner (副地主): known to the partner, public once revealed", or_null(seat()))),
            ("revealed", says("whether the marked card has been played (who plays with the landlord is then public)", boolean())),
            ("turn", says("who must act in the play phase", or_null(seat()))),
            ("on_table", says("the play to beat", or_null(object("a play", &[
                ("seat", says("who played it", seat())),
                ("cards", says("the cards", ranks())),
                ("suited", says("the same cards with their suits, if its player named them; null for a play by rank", or_null(cards()))),
                ("kind", says("as what kind of play", kinds)),
            ])))),
            ("history", says("every turn of the play phase, in order; cards null for a pass", array(object("a turn", &[("seat", seat()), ("cards", or_null(ranks())), ("suited", says("the same cards with their suits, as the player chose them; null for a pass and for a play by rank (the game chose those copies, and shows none)", or_null(cards())))])))),
            ("instant_win", says("how the landlord won without play, if so", or_null(one_of(&["no_partner_card", "big_bomb", "no_bomb"])))),
            ("winner", says("the player who went out", or_null(seat()))),
            ("scores", says("each seat's score change, once over", or_null(array(int())))),
        ],
    )
}

fn bigtwo() -> Value {
    let play = object(
        "a play",
        &[
            (
                "kind",
                says(
                    "what kind of play",
                    one_of(&[
                        "single",
                        "pair",
                        "triple",
                        "straight",
                        "flush",
                        "full_house",
                        "four_of_a_kind",
                        "straight_flush",
                    ]),
                ),
            ),
            ("cards", says("the cards played", cards())),
            (
                "top",
                says(
                    "the card that decides a comparison with a play of the same kind",
                    card(),
                ),
            ),
        ],
    );
    object(
        "锄大地 (Big Two): what one seat, or a spectator, may know.",
        &[
            ("seat", says("the seat looking; null for a spectator", or_null(seat()))),
            ("hand", says("the viewer's own cards; null for a spectator", or_null(cards()))),
            ("cards_left", says("cards left in each hand, seat 0 first", array(uint()))),
            ("to_act", says("whose turn it is; null once over", or_null(seat()))),
            ("last", says("the play to beat and who made it", or_null(object("the play on the table", &[("seat", seat()), ("play", play)])))),
            ("passes", says("passes since the last play", uint())),
            ("must_include", says("the card the next play must include (3♦ before a match's first play)", or_null(card()))),
            ("played", says("every card played so far", cards())),
            ("opener", says("the seat that led the deal", seat())),
            ("result", says("the deal's result, once over", or_null(object("a deal's result", &[
                ("winner", says("who went out first", seat())),
                ("hands", says("every hand at the end, seat 0 first", array(cards()))),
                ("card_scores", says("each seat's card score (牌分) from the cards it kept", array(int()))),
                ("results", says("each seat's result: the sum over the others of (their card score − its own)", array(int()))),
            ])))),
        ],
    )
}

fn tenhalf() -> Value {
    let points = json!({"type": "number", "minimum": 0, "multipleOf": 0.5});
    object(
        "十点半 (Ten and a half): what one seat, or a spectator, may know. A face-down base card is shown only to its holder.",
        &[
            ("viewer", viewer()),
            ("dealer", says("the dealer of this round", seat())),
            ("round", says("the round, from 1", uint())),
            ("deck_left", says("cards left in the deck", uint())),
            ("to_act", says("whose turn it is", or_null(seat()))),
            ("finished", says("the game is over", boolean())),
            ("winners", says("players who won this round outright", uint())),
            ("players", says("every seat, seat 0 first", array(object("a player", &[
                ("seat", seat()),
                ("status", says("`waiting`, `playing`, `stood`, `out`, or `{\"won\":\"ten_and_a_half\"}` / `{\"won\":\"five_dragon\"}`", json!({"anyOf": [
                    one_of(&["waiting", "playing", "stood", "out"]),
                    {"type": "object", "properties": {"won": one_of(&["ten_and_a_half", "five_dragon"])}, "required": ["won"], "additionalProperties": false},
                ]}))),
                ("penalties", says("points taken so far", uint())),
                ("has_base", says("whether the player has a base card (face down or not)", boolean())),
                ("base", says("the base card, if this viewer may see it", or_null(card()))),
                ("hits", says("the face-up cards taken", array(card()))),
                ("points", says("the hand's total, if this viewer may see the base card", or_null(points.clone()))),
            ])))),
            ("discards", says("the cards of past rounds", cards())),
            ("last_showdown", says("the last round's showdown", or_null(object("a showdown", &[
                ("round", says("the round it closed", uint())),
                ("hands", says("the hands of those who stood, worst first", array(object("a hand shown", &[
                    ("seat", seat()),
                    ("cards", says("its cards, base card first", array(card()))),
                    ("points", says("its total", points)),
                ])))),
                ("loser", says("who took the pot; null if nobody stood", or_null(seat()))),
                ("pot", says("the pot: 2, plus 2 per player who won the round", uint())),
            ])))),
        ],
    )
}

fn gomoku() -> Value {
    let point = says(
        "a point: [column, row], from 0 at the top left",
        tuple(&[uint(), uint()]),
    );
    let color = one_of(&["black", "white"]);
    object(
        "五子棋 (Gomoku): the whole game, the same for every seat and spectator.",
        &[
            ("size", says("the board's side", uint())),
            (
                "rule",
                says(
                    "`freestyle`, `standard` or `renju`",
                    one_of(&["freestyle", "standard", "renju"]),
                ),
            ),
            (
                "undo",
                says(
                    "how undo requests are settled: `ask` the opponent, or always `granted`",
                    one_of(&["ask", "granted"]),
                ),
            ),
            (
                "moves",
                says(
                    "the stones played, in order, black first",
                    array(point.clone()),
                ),
            ),
            (
                "to_move",
                says(
                    "the colour to place the next stone; null once over",
                    or_null(color.clone()),
                ),
            ),
            (
                "pending_undo",
                says(
                    "the colour that asked to undo and awaits an answer",
                    or_null(color.clone()),
                ),
            ),
            (
                "undo_left",
                says(
                    "undos each colour may still have granted, black then white",
                    tuple(&[uint(), uint()]),
                ),
            ),
            (
                "undo_refused",
                says(
                    "by colour, black then white: whether its last request was refused with the board as it is (asking again before another stone costs one undo)",
                    tuple(&[boolean(), boolean()]),
                ),
            ),
            (
                "black",
                says(
                    "the seat that plays black, 0 or 1: the colours swap from game to game; under swap2, as the opening's choice settled it (until then the first player)",
                    seat(),
                ),
            ),
            (
                "swap2",
                says(
                    "the swap2 opening's step while it lasts: `lay_three` (the first player lays black, white, black), `choose` (the second player places White's stone, or `take_black`, or `place_two`), `lay_two` (the second player lays white, black), `choose_again` (the first player places White's stone or `take_black`); null in a free opening and once the colours are chosen",
                    or_null(one_of(&["lay_three", "choose", "lay_two", "choose_again"])),
                ),
            ),
            (
                "end",
                says(
                    "how the game ended, once over",
                    or_null(object(
                        "the end",
                        &[
                            (
                                "winner",
                                says("the winning colour; null for a draw", or_null(color)),
                            ),
                            (
                                "reason",
                                says(
                                    "`five`, `resignation` (or time) or `full_board`",
                                    one_of(&["five", "resignation", "full_board"]),
                                ),
                            ),
                        ],
                    )),
                ),
            ),
            (
                "win_line",
                says("the winning five, once made", array(point.clone())),
            ),
            (
                "forbidden",
                says(
                    "points black may not play now (renju, black to move)",
                    array(point),
                ),
            ),
        ],
    )
}
