"""The platform shared by every game: match running, bots and search, simulation, tournaments,
records, benchmarks and the server. It knows games only through `tavola.game.Game`."""
