"""The person's taste: 👍/👎 and the profile, the quiz, favourites, «Похожие»."""
