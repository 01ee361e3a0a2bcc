"""The shop's console as data: its views' figures (`reports`, `estimates`), who may open it
(`access`), the weekly digest and its chart."""
