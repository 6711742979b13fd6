use game::sim::{run, SimOptions};
use gomoku::Gomoku;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let bots: Vec<String> = args[1].split(',').map(String::from).collect();
    let games: u64 = args[2].parse().unwrap();
    let rule = args.get(3).cloned().unwrap_or("freestyle".into());
    let t = std::time::Instant::now();
    let r = run::<Gomoku>(&SimOptions {
        config: serde_json::json!({"rule": rule}),
        bots,
        games,
        seed: 1,
        threads: 1,
        rotate: true,
    })
    .unwrap();
    println!("{}", serde_json::to_string_pretty(&r).unwrap());
    println!("{:?}", t.elapsed());
}
