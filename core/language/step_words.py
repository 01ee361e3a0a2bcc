"""The words of a follow-up's step: drier, sweeter, lighter, fuller, more, and the words a
refinement opens with («а белое?», «ок, а сухое?», «не, кислит…»). Stems or phrases: a word
of the folded text starting with one of them carries the change (`price_steps.has_cue`)."""

from __future__ import annotations

from core.language.folding import word_set

# Stems: a word starting with one of these (after ё→е) carries the change.
# «слишком сладко», «приторно», «кисловато»: a complaint about the wines shown steps away
DRIER = (
    "посуше",
    "суше",
    "драй",
    "drier",
    "dryer",
    "less sweet",
    "too sweet",
    "менее слад",
    "не такое слад",
    "слишком слад",
    "сладковато ",
    "сладковатый для",
    "сладковатое для",
    "притор",
    "менее притор",
    "покислее",
    "сахара поменьше",
    "поменьше сахара",
    "меньше сахара",
    "сахара меньше",
    "less sugar",
    "not so sweet",
)
SWEETER = (
    "послаще",
    "слаще",
    "sweeter",
    "more sweet",
    "сладенькое",
    "менее сух",
    "less dry",
    "too dry",
    "too sour",
    "слишком сух",
    "слишком кисл",
    "кисловат",
    "менее кисл",
    "кислюч",
    "кислятин",
    "кислит",
    "без кислинк",
    "без кислоты",
    "не кислое",
    "сахара побольше",
    "побольше сахара",
    "больше сахара",
)
LIGHTER = (
    "полегче",
    "легче",
    "лёгче",
    "lighter",
    "менее плотн",
    "менее тяжел",
    "менее насыщ",
    "не такое тяжел",
    "не такое плотн",
    "слишком тяжел",
    "слишком плотн",
    "слишком насыщ",
    "попроще по тел",
)
FULLER = (
    "помощнее",
    "мощнее",
    "плотнее",
    "поплотн",
    "насыщеннее",
    "понасыщ",
    "потяжел",
    "тяжелее",
    "более плотн",
    "более насыщ",
    "более тяжел",
    "полнотелее",
    "более полнотел",
    "покрепче",
    "fuller",
    "bolder",
    "richer",
)
MORE = (
    "ещё",
    "еще",
    "другие",
    "другое",
    "другой",
    "другую",
    "другого",
    "иные",
    "иное",
    "more",
    "another",
    "other",
    "others",
    "else",
    "варианты",
    "вариантов",
    "альтернатив",
)
OPENERS = (
    "а",
    "и",
    "and",
    "what",
    "how",
    "or",
    "или",
    "тогда",
    "then",
    "лучше",
    "а если",
    "actually",
    "make",
    "instead",
    "also",
)


# «ок, а сухое?», «ладно, давай сухое до косаря», «не, кислит, полусухое есть?»: words that
# answer what was shown before the change is said
LEAD_INS = word_set(
    "ок окей ok okay ладно хорошо ну хм хмм ясно понятно понял поняла ага угу да так well hmm "
    "alright yeah"
)
CORRECTIONS = word_set("не нет давай давайте no nah nope")
