"""Learning environments for every game: PettingZoo (AEC and Parallel) and Gymnasium.

The environments are game-agnostic and drive a game only through `tavola.game.Game`; each
game declares its encoding (`tavola.kit.GameKit.encoding`): a fixed action space, an index for
every action it can ever offer, and a fixed-size observation built from one seat's view only.
`encoding` and `table` need only numpy; `aec`, `parallel` and `single` import PettingZoo or
Gymnasium (the `rl` extra), so the games run without them.
"""
