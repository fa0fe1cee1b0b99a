use fanorona_env::{Env, Fanorona, Game};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
fn main() {
    let n: u64 = std::env::args().nth(1).unwrap().parse().unwrap();
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
}
