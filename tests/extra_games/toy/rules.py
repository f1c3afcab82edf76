"""Blind Draw, a toy game on the game contract (docs/adding_a_game.md).

2-4 players; a face-down deck of numbered cards (default 1-6, five of
each) and one face-up card, the offer. On your turn you either take the
offer (0: a new offer is turned up from the deck) or draw the deck's top
card blind (1: the offer stays). When the deck is empty the offer must be
taken (a forced step). The game ends when deck and offer are gone.
Score: the sum of your cards, plus ``bonus`` points to each player with the
most sixes (if anyone has one). Ties for first share the win. Hands are
public; the only hidden information is the order of the deck.
"""
from simcore._features import check_noise, check_weights
from simcore.rng import CHANCE_SALT, POLICY_SALT, Xoshiro256

PLAYERS = (2, 3, 4)
SCORE_CATEGORIES = ("cards", "bonus")
SETTINGS = {"deck": "the card values, comma-separated (default 1-6 five times)",
            "bonus": "points for the most sixes (default 4)"}
DEFAULT_DECK = tuple(v for v in range(1, 7) for _ in range(5))
TAKE, DRAW = 0, 1
FEATURES = ("offer_value", "blind_value")
FEATURE_DOCS = {"offer_value": "the face-up card's value (scores taking it)",
                "blind_value": "the mean value of the cards still in the deck (scores drawing blind)"}


class ToyConfig:
    def __init__(self, players, deck=DEFAULT_DECK, bonus=4):
        self.players, self.deck, self.bonus = players, tuple(deck), int(bonus)

    def settings(self):
        return {"deck": ",".join(map(str, self.deck)), "bonus": self.bonus}

    def data_status(self):
        return {}        # no component data file: everything is a setting


def make_config(players, **settings):
    if isinstance(players, bool) or players not in PLAYERS:
        raise ValueError(f"toy is played by {', '.join(map(str, PLAYERS))} players, not {players}")
    out = {}
    for key, value in settings.items():
        if key not in SETTINGS:
            raise ValueError(f"unknown setting '{key}' for toy (known: {', '.join(SETTINGS)})")
        try:
            out[key] = ([int(v) for v in str(value).split(",")] if key == "deck" and isinstance(value, str)
                        else list(value) if key == "deck" else int(value))
        except ValueError:
            raise ValueError(f"setting '{key}': not a number list / number: {value!r}") from None
    if "deck" in out and (len(out["deck"]) < 2 or min(out["deck"]) < 0):
        raise ValueError("setting 'deck': at least two cards, none negative")
    return ToyConfig(players, **out)


def shuffled_deck(config, seed):
    """The deck after set-up's shuffle (Fisher-Yates on the chance stream); index 0 is the top."""
    deck = list(config.deck)
    rng = Xoshiro256(seed, CHANCE_SALT)
    for i in range(len(deck) - 1, 0, -1):
        j = rng.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def policy_vector(weights, temperature=0.0, epsilon=0.0):
    """The per-seat policy ``play_batch`` takes: [offer_value, blind_value, epsilon] (a weight left out is 0;
    argmax play, the temperature is not used)."""
    w = check_weights(FEATURES, weights, optional=dict.fromkeys(FEATURES, 0.0), where="toy")
    _, e = check_noise(temperature, epsilon)
    return (w.get("offer_value", 0.0), w.get("blind_value", 0.0), e)


def policy_rng(seed):
    return Xoshiro256(seed, POLICY_SALT)


def choose(state, policy, rng):
    """The action ``policy`` (None: uniform random) takes at ``state``'s decision."""
    legal = state.legal_actions()
    if policy is None or (policy[2] > 0 and rng.next() < policy[2] * 2.0 ** 64):
        return legal[rng.below(len(legal))]
    deck = state.deck
    value = {TAKE: policy[0] * state.offer, DRAW: policy[1] * sum(deck) / len(deck) if deck else 0.0}
    return max(legal, key=lambda a: (value[a], -a))
