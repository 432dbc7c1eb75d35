//! Session benchmarks (`cargo bench -p chancery-tests`): the latency of undo, redo and
//! one input at the end of a 2,000-input game, rebasing that game onto a reloaded module,
//! and loading a module. Each figure is the median of repeated runs in this one process.

use std::time::{Duration, Instant};

use chancery_core::GameSpec;
use chancery_tests::{Picker, load, long_game, long_game_step, no_overlay, test_module};

const INPUTS: usize = 2_000;

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn show(name: &str, samples: Vec<Duration>) -> Duration {
    let n = samples.len();
    let m = median(samples);
    println!(
        "{name:<44} median {:>10.3} ms  ({n} runs)",
        m.as_secs_f64() * 1000.0
    );
    m
}

fn main() {
    let module = load(&test_module("testbed"));
    let mut session =
        chancery_core::start_game(module.clone(), GameSpec::new("basic", 4)).expect("starts");
    let started = Instant::now();
    long_game(&mut session, INPUTS);
    println!(
        "built a {INPUTS}-input game in {:.0} ms",
        started.elapsed().as_secs_f64() * 1000.0
    );

    let mut undo = Vec::new();
    let mut redo = Vec::new();
    for _ in 0..101 {
        let t = Instant::now();
        assert!(session.undo());
        undo.push(t.elapsed());
        let t = Instant::now();
        assert!(session.redo().expect("redo"));
        redo.push(t.elapsed());
    }
    // The worst place for undo: just after a checkpoint, the most inputs to replay.
    let mut undo_far = Vec::new();
    for _ in 0..31 {
        let t = Instant::now();
        assert!(session.undo());
        undo_far.push(t.elapsed());
    }
    for _ in 0..31 {
        session.redo().expect("redo");
    }
    let mut apply = Vec::new();
    let mut picker = Picker::new(99);
    for _ in 0..101 {
        let t = Instant::now();
        long_game_step(&mut session, &mut picker);
        apply.push(t.elapsed());
    }
    let u = show(&format!("undo at {INPUTS} inputs"), undo);
    show(&format!("undo at {INPUTS} inputs, up to 31 back"), undo_far);
    show(&format!("redo at {INPUTS} inputs"), redo);
    let a = show("apply one input", apply);
    println!(
        "undo / apply ratio: {:.2}",
        u.as_secs_f64() / a.as_secs_f64()
    );

    let mut rebase = Vec::new();
    for _ in 0..5 {
        let t = Instant::now();
        session.rebase(module.clone()).expect("rebases");
        rebase.push(t.elapsed());
    }
    show(
        &format!("rebase a {}-input game", session.history().len()),
        rebase,
    );

    let mut loads = Vec::new();
    for _ in 0..21 {
        let t = Instant::now();
        chancery_core::load_module(test_module("testbed"), &no_overlay()).expect("loads");
        loads.push(t.elapsed());
    }
    show("load and check the testbed module", loads);
}
