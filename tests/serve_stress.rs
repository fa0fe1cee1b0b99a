//! `fanorona serve` under many slow and fast clients at once, on 127.0.0.1 only, bounded in
//! count and time: fast players (games between agents at the largest table allowed, steps,
//! reads, undo, records), slow ones (headers a byte at a time, bodies that stop, idle
//! connections, a `Content-Length` over the limit, agents over the caps) and a probe that
//! times a read every 50 ms. The server must answer the probe quickly throughout, play every
//! agent turn, and keep its peak memory (VmHWM) under a stated limit; with 16 of the heaviest
//! agents thinking at once (the default on 16 cores) it must stay under 1 GiB; and with fewer
//! file descriptors than idle connections it must still answer, and recover once they time
//! out.

mod common;

use std::io::Write;
use std::net::TcpStream;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use common::server::{Server, read_until_closed};
use serde_json::json;

/// How long the clients run.
const RUN: Duration = Duration::from_secs(8);

/// The most memory the server may have resident under the load, in MiB.
const PEAK_LIMIT_MIB: u64 = 400;

/// The most memory the server may have resident with 16 agents thinking at once, in MiB.
const SIXTEEN_THINKERS_LIMIT_MIB: u64 = 1024;

/// The slowest answer to the probe allowed, in milliseconds.
const PROBE_LIMIT_MS: u64 = 1000;

/// The heaviest agents a request may ask for (the largest table, the most simulations), the
/// network kinds over the shipped models included.
const HEAVY_AGENTS: [&str; 4] = [
    "minimax:hash=16,ms=50",
    "minimax:hash=16,depth=2",
    "net:ms=60000",
    "abnet:hash=16,ms=50",
];

/// A fast player: games between the heaviest agents, turn after turn, with reads, records
/// and undo; returns the agent turns played.
fn fast_player(server: &Server, seed: u64, until: Instant) -> usize {
    let agents = HEAVY_AGENTS;
    let mut turns = 0;
    while Instant::now() < until {
        let pick = |i: u64| agents[((seed + i) as usize) % agents.len()];
        let game = server
            .post(
                "/api/games",
                json!({"white": pick(0), "black": pick(1), "seed": seed}),
            )
            .ok();
        let id = game["id"].as_str().unwrap().to_string();
        for _ in 0..6 {
            let state = server.post(&format!("/api/games/{id}/agent"), json!({}));
            if state.status == 409 {
                break; // the game is over
            }
            state.ok();
            turns += 1;
            server.get(&format!("/api/games/{id}")).ok();
        }
        server.get(&format!("/api/games/{id}/record")).ok();
        server
            .post(&format!("/api/games/{id}/undo"), json!({}))
            .ok();
        // A person's game: a step by index.
        let game = server
            .post("/api/games", json!({"agent": "greedy", "side": "white"}))
            .ok();
        let id = game["id"].as_str().unwrap();
        let action = &game["legal_steps"][0]["action"];
        server
            .post(&format!("/api/games/{id}/steps"), json!({"action": action}))
            .ok();
    }
    turns
}

/// A slow client of kind `kind` (0-4), over and over until `until`.
fn slow_client(server: &Server, kind: usize, until: Instant) {
    while Instant::now() < until {
        let Ok(mut stream) = TcpStream::connect(server.addr()) else {
            continue;
        };
        let started = Instant::now();
        let limit = Duration::from_secs(3);
        match kind {
            // Headers a byte every 100 ms: closed at the read timeout.
            0 => {
                for byte in b"GET /api/agents HTTP/1.1\r\nhost: x\r\nx-slow: yes\r\n" {
                    if stream.write_all(&[*byte]).is_err() || Instant::now() > until {
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(100));
                }
            }
            // A body that stops after two bytes: 408.
            1 => {
                let _ = stream.write_all(
                    b"POST /api/games HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n\
                      content-length: 50\r\n\r\n{}",
                );
                read_until_closed(stream, started, limit);
            }
            // An idle connection: closed at the read timeout.
            2 => {
                read_until_closed(stream, started, limit);
            }
            // A Content-Length over the limit: 413 at once.
            3 => {
                let _ = stream.write_all(
                    b"POST /api/games HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n\
                      content-length: 9999999\r\n\r\n{",
                );
                read_until_closed(stream, started, limit);
            }
            // Agents over the caps: refused.
            _ => {
                drop(stream);
                let big = json!({"white": "minimax:hash=64", "black": "mcts:sims=99999"});
                server.post("/api/games", big).refused(400, "");
                std::thread::sleep(Duration::from_millis(20));
            }
        }
    }
}

#[test]
fn serve_stays_responsive_and_bounded_under_many_slow_and_fast_clients() {
    let server = Server::start(&[
        "--think-ms",
        "100",
        "--read-timeout-ms",
        "1000",
        "--max-connections",
        "96",
        "--max-games",
        "100",
    ]);
    let until = Instant::now() + RUN;
    let turns = AtomicUsize::new(0);
    let slowest_probe = AtomicU64::new(0);
    let probes = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for seed in 0..8 {
            let (server, turns) = (&server, &turns);
            scope
                .spawn(move || turns.fetch_add(fast_player(server, seed, until), Ordering::SeqCst));
        }
        for client in 0..40 {
            let server = &server;
            scope.spawn(move || slow_client(server, client % 5, until));
        }
        scope.spawn(|| {
            while Instant::now() < until {
                let started = Instant::now();
                server.get("/api/agents").ok();
                let ms = started.elapsed().as_millis() as u64;
                slowest_probe.fetch_max(ms, Ordering::SeqCst);
                probes.fetch_add(1, Ordering::SeqCst);
                std::thread::sleep(Duration::from_millis(50));
            }
        });
    });
    let slowest = slowest_probe.load(Ordering::SeqCst);
    let peak = server.peak_mib();
    let (turns, probes) = (turns.load(Ordering::SeqCst), probes.load(Ordering::SeqCst));
    eprintln!("{turns} agent turns, {probes} probes, slowest {slowest} ms, peak {peak} MiB");
    assert!(turns >= 16, "only {turns} agent turns were played");
    assert!(probes >= 20, "only {probes} probes were answered");
    assert!(slowest < PROBE_LIMIT_MS, "a probe took {slowest} ms");
    assert!(peak < PEAK_LIMIT_MIB, "serve used up to {peak} MiB");
    server.get("/api/agents").ok();
}

#[test]
fn three_hundred_idle_connections_under_256_descriptors_leave_serve_reachable() {
    let server = Server::start_with_open_files(256, &["--read-timeout-ms", "1000"]);
    let idle: Vec<TcpStream> = (0..300)
        .filter_map(|_| TcpStream::connect(server.addr()).ok())
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    // At the cap: an answer at once (503 in JSON), not a hang.
    let started = Instant::now();
    let busy = server.exchange(
        b"GET /api/agents HTTP/1.1\r\nhost: x\r\n\r\n",
        Duration::from_secs(5),
    );
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    assert!(matches!(busy.status(), Some(200 | 503)), "{}", busy.text);
    // Once the idle connections have timed out, it serves again.
    std::thread::sleep(Duration::from_millis(1500));
    server.get("/api/agents").ok();
    drop(idle);
}

#[test]
fn sixteen_of_the_heaviest_agents_thinking_at_once_stay_under_1_gib() {
    // The default limits on a 16-core machine: 16 agents think at once.
    let server = Server::start(&["--thinkers", "16"]);
    let agents = HEAVY_AGENTS;
    let until = Instant::now() + Duration::from_secs(6);
    let turns = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for client in 0..32 {
            let (server, agents, turns) = (&server, &agents, &turns);
            scope.spawn(move || {
                while Instant::now() < until {
                    let pick = |i: usize| agents[(client + i) % agents.len()];
                    let game = server
                        .post(
                            "/api/games",
                            json!({"white": pick(0), "black": pick(1), "seed": client}),
                        )
                        .ok();
                    let id = game["id"].as_str().unwrap();
                    for _ in 0..2 {
                        server
                            .post(&format!("/api/games/{id}/agent"), json!({}))
                            .ok();
                        turns.fetch_add(1, Ordering::SeqCst);
                    }
                }
            });
        }
    });
    let (peak, turns) = (server.peak_mib(), turns.load(Ordering::SeqCst));
    eprintln!("16 thinkers, 32 clients: {turns} agent turns, peak {peak} MiB");
    assert!(turns >= 32, "only {turns} agent turns");
    assert!(
        peak < SIXTEEN_THINKERS_LIMIT_MIB,
        "serve used up to {peak} MiB"
    );
}
