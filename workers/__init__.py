"""RQ workers: computer seats' moves and the sweeper that heals lost jobs."""
