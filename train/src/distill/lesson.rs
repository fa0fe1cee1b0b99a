//! A minibatch of the teacher's answers: for each position its observation, its legal mask,
//! the teacher's policy (softmax of its logits over the legal actions, in the mover's frame as
//! the network sees them) as the policy target
//! and the teacher's value as the value target, or the exact value where endgame tables hold
//! the position.

use fanorona_env::{Fanorona, Game, Position};
use fanorona_exact::tables::EndgameTables;
use fanorona_search::legal_softmax;

use crate::model::PolicyValueNet;
use crate::replay::Batch;
use crate::table_labels::exact_value;

/// Fills `batch` with the positions `positions` labelled by `teacher` (an inference copy),
/// their values made exact where `tables` hold them; `logits` is scratch space.
pub fn lesson(
    teacher: &PolicyValueNet,
    tables: Option<&EndgameTables>,
    positions: &[Position],
    batch: &mut Batch,
    logits: &mut Vec<f32>,
) {
    let config = teacher.config();
    let (len, a) = (config.observation_len(), config.num_actions);
    batch.reset(positions.len(), len, a);
    batch.policy_weights.fill(1.0);
    for (pos, out) in positions.iter().zip(batch.observations.chunks_mut(len)) {
        Fanorona::new(*pos).write_observation(out);
    }
    logits.resize(positions.len() * a, 0.0);
    teacher.infer(&batch.observations, logits, &mut batch.values);
    if let Some(tables) = tables {
        for (pos, value) in positions.iter().zip(batch.values.iter_mut()) {
            if let Some(exact) = exact_value(tables, pos) {
                *value = exact;
            }
        }
    }
    let (mut actions, mut probabilities) = (Vec::new(), Vec::new());
    for (i, pos) in positions.iter().enumerate() {
        // The network's actions are in the mover's frame (the board turned for black).
        let state = Fanorona::new(*pos);
        state.legal_actions(&mut actions);
        for action in actions.iter_mut() {
            *action = state.to_mover_action(*action);
        }
        let row = i * a;
        legal_softmax(&logits[row..row + a], &actions, &mut probabilities);
        for (&action, &p) in actions.iter().zip(&probabilities) {
            batch.mask[row + action] = 1.0;
            batch.policy[row + action] = p;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Architecture, NetworkConfig};
    use burn::module::Module;
    use burn::tensor::Device;
    use fanorona_env::Board;
    use fanorona_exact::tables::{BuildOptions, build};

    #[test]
    fn targets_are_the_teachers_outputs_on_the_legal_actions() {
        let game = Fanorona::standard();
        let config = NetworkConfig::for_game(&game, Architecture::mlp(&[16]));
        let teacher = PolicyValueNet::init_seeded(&config, &Device::flex(), 5)
            .unwrap()
            .valid();
        let mut pos = Position::standard();
        let first = pos.legal_turns()[0];
        // White to move, then black: black's actions are seen with the board turned.
        let positions = [pos, {
            pos.play_turn_unchecked(&first);
            pos
        }];
        assert_eq!(positions[1].side_to_move(), fanorona_env::Color::Black);
        let (mut batch, mut logits) = (Batch::default(), Vec::new());
        lesson(&teacher, None, &positions, &mut batch, &mut logits);
        let a = config.num_actions;
        assert_eq!(batch.size, 2);
        let mut legal = Vec::new();
        for (i, p) in positions.iter().enumerate() {
            let state = Fanorona::new(*p);
            let mut observation = vec![0.0; config.observation_len()];
            state.write_observation(&mut observation);
            let (mut policy, mut value) = (vec![0.0; a], [0.0]);
            teacher.infer(&observation, &mut policy, &mut value);
            assert_eq!(batch.values[i], value[0]);
            state.legal_actions(&mut legal);
            for action in legal.iter_mut() {
                *action = state.to_mover_action(*action);
            }
            let target = &batch.policy[i * a..(i + 1) * a];
            let legal_sum: f32 = legal.iter().map(|&l| target[l]).sum();
            assert!((legal_sum - 1.0).abs() < 1e-5);
            assert!(
                (target.iter().sum::<f32>() - 1.0).abs() < 1e-5,
                "illegal mass"
            );
            // Ratios of probabilities are the teacher's logit differences.
            let (x, y) = (legal[0], legal[legal.len() - 1]);
            let ratio = (target[x] / target[y]).ln();
            assert!((ratio - (policy[x] - policy[y])).abs() < 1e-3);
            let mask = &batch.mask[i * a..(i + 1) * a];
            assert_eq!(mask.iter().sum::<f32>() as usize, legal.len());
            assert!(
                legal.iter().all(|&l| mask[l] == 1.0),
                "the mover's legal actions"
            );
        }
    }

    #[test]
    fn positions_the_tables_hold_get_their_exact_value_as_target() {
        let dir = tempfile::tempdir().unwrap();
        let (tables, _) =
            build(Board::standard(), 3, dir.path(), &BuildOptions::default()).unwrap();
        let game = Fanorona::standard();
        let config = NetworkConfig::for_game(&game, Architecture::mlp(&[16]));
        let teacher = PolicyValueNet::init_seeded(&config, &Device::flex(), 5)
            .unwrap()
            .valid();
        // White to move wins, black to move loses, two lone pieces draw, the opening is the
        // teacher's.
        let positions = ["9/9/3B5/9/2W1B4 w", "9/9/9/1W7/WB7 b", "W8/9/9/9/8B b"]
            .map(|fen| Position::from_fen(fen).unwrap())
            .to_vec()
            .into_iter()
            .chain([Position::standard()])
            .collect::<Vec<_>>();
        let (mut batch, mut logits) = (Batch::default(), Vec::new());
        lesson(&teacher, None, &positions, &mut batch, &mut logits);
        let taught = batch.values.clone();
        lesson(&teacher, Some(&tables), &positions, &mut batch, &mut logits);
        assert_eq!(&batch.values[..3], [1.0, -1.0, 0.0]);
        assert_eq!(batch.values[3], taught[3]);
        assert!(
            taught[..3] != batch.values[..3],
            "the untrained teacher already knew"
        );
    }
}
