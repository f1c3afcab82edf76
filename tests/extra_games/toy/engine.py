"""Blind Draw's step API and batch kernel, in plain Python (rules in ``rules.py``)."""
import numpy as np

from extra_games.toy.rules import DRAW, TAKE, choose, make_config, policy_rng, shuffled_deck


class State:
    """A Blind Draw position: ``deck`` (top first, hidden), ``offer`` (face up, or None), public ``hands``."""

    @staticmethod
    def new(config, seed):
        st = State()
        st.config, st.seed = config, int(seed)
        st.deck = shuffled_deck(config, st.seed)
        st.offer = st.deck.pop(0)
        st.hands = [[] for _ in range(config.players)]
        st.current, st.decisions, st.turn = 0, 0, 0
        st._log = [("setup", -1, -1)]
        st._settle()
        return st

    @property
    def players(self):
        return self.config.players

    def current_player(self):
        return -1 if self.is_over() else self.current

    def is_over(self):
        return self.offer is None and not self.deck

    def legal_actions(self):
        if self.is_over():
            return []
        return [a for a, ok in ((TAKE, self.offer is not None), (DRAW, bool(self.deck))) if ok]

    def apply(self, action):
        legal = self.legal_actions()
        if action not in legal:
            raise ValueError(f"illegal action {action} for seat {self.current} (legal: {legal})")
        self._step(action, "decision")
        self.decisions += 1
        self._settle()

    def _step(self, action, kind):
        self._log.append((kind, self.current, action))
        if action == TAKE:
            self.hands[self.current].append(self.offer)
            self.offer = self.deck.pop(0) if self.deck else None
        else:
            self.hands[self.current].append(self.deck.pop(0))
        self.current = (self.current + 1) % self.players
        self.turn += 1

    def _settle(self):
        while not self.is_over() and len(self.legal_actions()) == 1:
            self._step(self.legal_actions()[0], "forced")

    def scores(self):
        sixes = [h.count(6) for h in self.hands]
        top = max(sixes)
        cards = [sum(h) for h in self.hands]
        bonus = [self.config.bonus if top > 0 and s == top else 0 for s in sixes]
        return {"cards": cards, "bonus": bonus, "total": [c + b for c, b in zip(cards, bonus)]}

    def win_shares(self):
        total = self.scores()["total"]
        best = [t == max(total) for t in total]
        return [b / sum(best) for b in best]

    def transcript(self):
        """Every step so far as dicts with a ``text`` (made when asked for)."""
        out = []
        for kind, seat, action in self._log:
            if kind == "setup":
                out.append({"kind": "setup", "seed": self.seed, "text": f"set-up: seed {self.seed}"})
            else:
                word = "takes the offer" if action == TAKE else "draws blind"
                out.append({"kind": kind, "seat": seat, "action": action, "text": f"seat {seat} {word}"})
        if self.is_over():
            out.append({"kind": "end", "scores": self.scores(),
                        "text": "game over: totals " + ", ".join(map(str, self.scores()["total"]))})
        return out

    def clone(self):
        return State.from_dict(self.to_dict(), self.config)

    def determinize(self, seed):
        """A clone whose face-down deck is reshuffled from ``seed`` (what a seat cannot see)."""
        from simcore.rng import Xoshiro256

        st = self.clone()
        rng = Xoshiro256(seed)
        for i in range(len(st.deck) - 1, 0, -1):
            j = rng.below(i + 1)
            st.deck[i], st.deck[j] = st.deck[j], st.deck[i]
        return st

    def to_dict(self):
        return {"players": self.players, "settings": self.config.settings(), "seed": self.seed,
                "deck": list(self.deck), "offer": self.offer, "hands": [list(h) for h in self.hands],
                "current": self.current, "decisions": self.decisions, "turn": self.turn,
                "log": [list(e) for e in self._log]}

    @staticmethod
    def from_dict(d, config=None):
        st = State()
        st.config = config or make_config(d["players"], **d["settings"])
        st.seed, st.deck, st.offer = d["seed"], list(d["deck"]), d["offer"]
        st.hands = [list(h) for h in d["hands"]]
        st.current, st.decisions, st.turn = d["current"], d["decisions"], d["turn"]
        st._log = [tuple(e) for e in d["log"]]
        return st

    def __eq__(self, other):
        return isinstance(other, State) and self.to_dict() == other.to_dict()


def _play(config, seed, policies):
    st = State.new(config, seed)
    rng = policy_rng(seed)
    actions = []
    while not st.is_over():
        a = choose(st, policies[st.current], rng)
        actions.append(a)
        st.apply(a)
    return st, actions


def play_actions(players, seed, policies=None, config=None, **settings):
    config = config or make_config(players, **settings)
    return _play(config, seed, policies or [None] * players)[1]


def play_batch(players, seeds, policies=None, config=None, events=True, **settings):
    """Play one game per seed; columnar results as every engine returns them."""
    config = config or make_config(players, **settings)
    policies = list(policies) if policies is not None else [None] * players
    seeds = np.asarray(seeds, dtype=np.uint64)
    n = len(seeds)
    games = {"seed": seeds.copy(), "decisions": np.zeros(n, np.int16), "turns": np.zeros(n, np.int16),
             "n_winners": np.zeros(n, np.int8)}
    cols = {k: np.zeros((n, players), dt) for k, dt in
            (("cards", np.int16), ("bonus", np.int16), ("total", np.int16), ("rank", np.int8),
             ("win_share", np.float32), ("sixes", np.int8), ("blind_draws", np.int8))}
    ev = {"game": [], "seat": [], "turn": [], "card": [], "blind": []}
    for g, seed in enumerate(seeds.tolist()):
        st, _ = _play(config, seed, policies)
        sc = st.scores()
        games["decisions"][g], games["turns"][g] = st.decisions, st.turn
        share = st.win_shares()
        games["n_winners"][g] = sum(s > 0 for s in share)
        for p in range(players):
            cols["cards"][g, p], cols["bonus"][g, p], cols["total"][g, p] = sc["cards"][p], sc["bonus"][p], sc["total"][p]
            cols["rank"][g, p] = 1 + sum(t > sc["total"][p] for t in sc["total"])
            cols["win_share"][g, p] = share[p]
            cols["sixes"][g, p] = st.hands[p].count(6)
        hand_pos = [0] * players
        for turn, (kind, seat, action) in enumerate(st._log[1:]):
            card = st.hands[seat][hand_pos[seat]]
            hand_pos[seat] += 1
            cols["blind_draws"][g, seat] += action == DRAW
            for k, v in (("game", g), ("seat", seat), ("turn", turn), ("card", card), ("blind", int(action == DRAW))):
                ev[k].append(v)
    types = {"game": np.int32, "seat": np.int8, "turn": np.int16, "card": np.int8, "blind": np.int8}
    ev = {k: np.asarray(v if events else [], dtype=types[k]) for k, v in ev.items()}
    return {"games": games, "players": cols, "events": ev}
