use fanorona_env::{Env, EnvConfig, Fanorona, Game, VecEnv};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: u64 = args[1].parse().unwrap();
    let threads: usize = args[2].parse().unwrap();
    let t0 = std::time::Instant::now();
    if threads == 0 {
        let mut env = Env::new(Fanorona::standard());
        let mut rng = SmallRng::seed_from_u64(1);
        let mut c = 0.0;
        for _ in 0..n {
            let legal = env.legal_actions();
            let action = legal[rng.random_range(0..legal.len())];
            let step = env.step(action).unwrap();
            c += step.obs[0] + f32::from(u8::from(step.mask[0]));
            if step.transition.done() {
                env.reset(rng.random());
            }
        }
        println!("{c} {}", env.state().num_actions());
    } else {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let mut envs = VecEnv::new(Fanorona::standard(), 256, EnvConfig::default(), 1);
            for _ in 0..n / 256 {
                envs.step_random();
            }
            println!("{}", envs.observations()[0]);
        });
    }
    let s = t0.elapsed().as_secs_f64();
    println!("wall {s:.3}s {:.0} steps/s", n as f64 / s);
}
