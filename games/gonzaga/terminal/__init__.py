"""Play Gonzaga in the terminal: a coloured hex map, player boards and menus, drawn with rich.

`hexmap`, `render` and `final` draw (pure functions of a view, so tests need no terminal),
`input` asks and checks what people type, `planning` and `placing` are the two kinds of turn,
and `loop` seats people and bots and plays the game (`play_in_terminal`).
"""
