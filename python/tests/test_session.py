"""fanorona.GameSession: people and agents in one game, undo, refusals, records."""

from __future__ import annotations

import pytest

from fanorona import GameSession, Position

# White's c1 takes both black pieces with the chain c1d1A d2A.
CHAIN = "9/9/3B5/9/2W1B4 w"


def test_a_person_and_an_agent_take_turns_and_undo_takes_both_back():
    session = GameSession(white="human", black="minimax:depth=2", board="5x3", seed=4)
    start = session.position.fen
    assert session.players == ("human", "minimax:depth=2")
    assert session.human_to_move and not session.can_undo
    turn = Position(board="5x3").legal_turns()[0]
    session.play(turn)
    assert session.moves == [turn] and not session.human_to_move
    reply = session.agent_move()
    assert session.moves == [turn, reply] and session.human_to_move
    info = session.last_info
    assert info["agent"] == "minimax:depth=2" and info["side"] == "black"
    assert info["depth"] == 2 and info["pv"][0] == reply
    # Undo goes back to the person's last turn: the agent's reply goes with it.
    session.undo()
    assert session.moves == [] and session.position.fen == start
    assert session.last_info is None
    with pytest.raises(ValueError, match="nothing to undo"):
        session.undo()


def test_refused_requests_change_nothing():
    session = GameSession(white="human", black="greedy", board="5x3")
    with pytest.raises(ValueError, match="white is played by human"):
        session.agent_move()
    with pytest.raises(ValueError):
        session.play("a1a9")
    with pytest.raises(ValueError):
        session.play_step(10_000)
    assert session.moves == [] and session.human_to_move
    session.play(session.position.legal_turns()[0])
    with pytest.raises(ValueError, match="black is played by greedy"):
        session.play(session.position.legal_turns()[0])
    assert len(session.moves) == 1
    for bad in [dict(white="nonsense"), dict(fen="9/9/9 x"), dict(board="4x4")]:
        with pytest.raises(ValueError):
            GameSession(**bad)


def test_a_capture_chain_is_played_step_by_step_and_recorded():
    session = GameSession(white="human", black="human", fen=CHAIN)
    session.play_step("c1d1A")
    assert session.current_steps == ["c1d1A"] and session.moves == []
    with pytest.raises(ValueError, match="capture chain is in progress"):
        session.play("d1d2A")
    # Undo in a chain takes back its steps only.
    session.undo()
    assert session.current_steps == [] and session.position.fen == Position(CHAIN).fen
    session.play_step("c1d1A")
    session.play_step(session.position.action_id("d1d2A"))
    assert session.moves == ["c1d1Ad2A"]
    assert session.is_over and session.result == "1-0"
    with pytest.raises(ValueError, match="the game is over"):
        session.play_step("stop")
    record = session.record(event="test", date="2026.12.03")
    assert '[Event "test"]' in record and '[Date "2026.12.03"]' in record
    assert '[Result "1-0"]' in record and "1. c1d1Ad2A 1-0" in record
    assert '[Date "????.??.??"]' in session.record()


def test_two_agents_play_a_whole_game_the_same_way_for_a_seed():
    def game(seed):
        session = GameSession(white="greedy", black="random", board="5x3", seed=seed)
        while not session.is_over and len(session.moves) < 200:
            session.agent_move()
        return session.moves, session.result

    moves, result = game(7)
    assert moves and result in ("1-0", "0-1", "1/2-1/2")
    assert game(7) == (moves, result)


def test_a_record_always_reads_back_and_a_header_cannot_break_it(tmp_path, fanorona_bin):
    import subprocess

    session = GameSession(white="human", black="human", board="5x3")
    session.play(session.position.legal_turns()[0])
    # Quotes and brackets are escaped: `fanorona review` reads the record back.
    text = session.record(event='a "quoted"] event', date="2026.12.06")
    path = tmp_path / "game.pgn"
    path.write_text(text)
    review = subprocess.run([fanorona_bin, "review", str(path)], capture_output=True, text=True)
    assert review.returncode == 0, review.stderr
    assert 'a "quoted"] event' in review.stdout
    # A line break (or another control character) would end the header line: refused.
    for event, date in [("two\nlines", None), ("ok", "2026.12.06\r"), ("tab\there", None)]:
        with pytest.raises(ValueError, match="line break or another control character"):
            session.record(event=event, date=date)
