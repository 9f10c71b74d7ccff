"""report.html and its charts."""
