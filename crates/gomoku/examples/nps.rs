use gomoku::engine::{Engine, Limits};
use gomoku::{Point, Rule};
fn main() {
    let t = std::time::Instant::now();
    let _ = gomoku::engine::pattern::table(false);
    println!("table {:?}", t.elapsed());
    let moves: Vec<Point> = [(7, 7), (8, 8), (8, 6), (6, 8), (7, 9), (9, 7)]
        .iter()
        .map(|&(x, y)| Point::new(x, y))
        .collect();
    for depth in [4u32, 6, 8, 10] {
        let mut e = Engine::new(15, Rule::Freestyle, 20);
        e.set_moves(15, Rule::Freestyle, &moves).unwrap();
        let t = std::time::Instant::now();
        let r = e.think(&Limits {
            max_depth: depth,
            vcf_nodes: 0,
            vct_nodes: 0,
            ..Limits::default()
        });
        let el = t.elapsed();
        println!(
            "depth {depth}: {:?} eval {} nodes {} time {:?} nps {:.0}",
            r.best,
            r.eval,
            r.nodes,
            el,
            r.nodes as f64 / el.as_secs_f64()
        );
    }
}
