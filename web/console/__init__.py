"""The shop's console (issue 27): `/console` for admins, the «Купить» redirect `/go/`, and
`/metrics`. Charts are SVG drawn on the server (`charts.py`): no script, no outside asset."""
