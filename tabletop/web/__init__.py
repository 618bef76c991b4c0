"""What every game's web play shares: storage, bot workers, connections, input limits."""
