"""Blind Draw's reference engine: the rules restated as plainly as possible.

It replays the engine's transcripts (the differential and golden harnesses)
and must agree on every legal list and every score.
"""
from extra_games.toy.rules import DRAW, TAKE, make_config, shuffled_deck


class RefState:
    @classmethod
    def new(cls, players=3, seed=0, **settings):
        st = cls()
        st.cfg = make_config(players, **settings)
        st.deck = shuffled_deck(st.cfg, seed)
        st.offer = st.deck.pop(0)
        st.hands = [[] for _ in range(players)]
        st.seat = 0
        st._forced()
        return st

    def is_over(self):
        return not self.deck and self.offer is None

    def legal_actions(self):
        out = []
        if self.offer is not None:
            out.append(TAKE)
        if self.deck:
            out.append(DRAW)
        return out

    def _do(self, action):
        if action == TAKE:
            self.hands[self.seat].append(self.offer)
            self.offer = self.deck.pop(0) if self.deck else None
        else:
            self.hands[self.seat].append(self.deck.pop(0))
        self.seat = (self.seat + 1) % len(self.hands)

    def _forced(self):
        while len(self.legal_actions()) == 1:
            self._do(self.legal_actions()[0])

    def apply(self, action):
        if action not in self.legal_actions():
            raise ValueError(f"illegal action {action}")
        self._do(action)
        self._forced()

    def scores(self):
        cards = [sum(h) for h in self.hands]
        most = max(h.count(6) for h in self.hands)
        bonus = [self.cfg.bonus if most and h.count(6) == most else 0 for h in self.hands]
        return {"cards": cards, "bonus": bonus, "total": [c + b for c, b in zip(cards, bonus)]}


def replay(players, seed, actions, **settings):
    if actions and isinstance(actions[0], dict):
        actions = [e["action"] for e in actions if e["kind"] == "decision"]
    st = RefState.new(players, seed, **settings)
    for a in actions:
        st.apply(a)
    return st
