"""What a message is about, by the dictionary forms of its words: wine, alcohol, health, or a
subject outside wine (a phone, the weather, code). Lemmas make one entry of «беременности»,
«беременной» and «беременна»; the few phrases a lemma cannot say are patterns on the folded
text. Read by `kinds` to tell a wine question from off-topic, and a health question from both.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from core.language.folding import fold, word_set
from core.language.lemmas import Word, words_of

_B = r"(?<![a-zа-я])"


WINE_LEMMAS = word_set(
    """
    вино винцо винишко винный винотека винодельня винодел виноделие виноград виноградник
    виноградный лоза бутылка бутылочка бокал бокальчик фужер игристый игристое шампанское
    шампанский шампусик шампунь сомелье дегустация дегустировать погреб штопор пробка купаж
    урожай танин танинный кислотность послевкусие декантер декантировать декантация
    аэрация аэратор портвейн херес мадера марсала вермут глинтвейн сангрия просекко кава брют
    креман ламбруско асти крепленый креплёный десертный полусухой полусладкий сухач красненькое
    беленькое розовое розовый красное белое совиньон шардоне мерло каберне рислинг пино
    саперави мускат москато риоха кьянти бароло бордо бургундское божоле сотерн токай
    полусухой полусладкий полусух полусладк этикетка контрэтикетка мацерация ферментация
    брожение выдержка сусло сульфит сульфиты
    мезга дрожжи винификация терруар апелласьон аппелласьон купажирование бочка баррик
    wine wines vino vin winery grape grapes vineyard bottle sommelier cork vintage champagne
    prosecco cava port sherry riesling merlot cabernet chardonnay pinot tannin tannins
    """
)
ALCOHOL_LEMMAS = WINE_LEMMAS | word_set(
    """
    алкоголь алкогольный спиртное спиртной спирт выпивка выпивать бухать бухло бухнуть градус
    промилле пьяный опьянение напиться alcohol drinking drunk booze
    """
)
HEALTH_LEMMAS = word_set(
    """
    беременность беременный беременная беременна беременеть кормление лактация грудной
    навредить вредить опасно опасный безопасно корвалол валокордин парацетамол аспирин
    ибупрофен нурофен цитрамон феназепам метформин варфарин
    лекарство таблетка антибиотик препарат медикамент антидепрессант снотворное обезболивающее
    давление сердце сердечный сосуд холестерин инфаркт диабет диабетик инсулин калория
    калорийность калорийный ккал килокалория похудеть похудение диета толстеть полнеть
    несовершеннолетний подросток школьник руль водитель вождение водить промилле
    похмелье похмелие похмельный мигрень аллергия аллергический аллергик гистамин непереносимость
    астма печень здоровье вредно вредный вред полезно полезный польза врач доктор болезнь
    лечение гастрит язва подагра онкология иммунитет антиоксидант ресвератрол
    болеть боль заболеть опохмелиться опохмелка опохмел отравиться отравление тошнить тошнота
    pregnant pregnancy medication medicine antibiotic calorie calories healthy health heart
    diabetes hangover allergy allergic headache underage driving painkiller painkillers pill
    pills tablets breastfeeding diabetic
    """
)
# «на 7 месяце», «на пятой неделе»: a term of pregnancy, whatever else the message says.
_TERM = (
    r"на (\d+\W*(м|й)?|(перв|втор|трет|четв[её]рт|пят|шест|седьм|восьм|девят|десят|\w+надцат"
    r"|двадцат|тридцат)\w*)\W*(месяц|недел)"
)
PREGNANCY_TERM = re.compile(_B + _TERM)
_HEALTH_PHRASES = re.compile(
    # a person's age, not a wine's («темнеет с возрастом»)
    _B + r"(без вреда|(с|до|в|от) как\w+ возраст|возраст\w* (покупател|для покупки)|со скольки лет"
    r"|с (\d+|восемнадцати|шестнадцати|четырнадцати) лет|за рул|голова болит|болит голова"
    r"|кормлю грудью|кормящ|на сколько лет|сколько лет нужно|сахар в крови"
    # wine given to a child: «можно давать ребенку попробовать?», «детям наливают?»
    r"|(дава\w*|дать|налива\w*|налить|пробовать|попробовать) (\w+ )?(ребенк|реб[её]нк|детям|детей)"
    r"|(ребенк|реб[её]нк|детям|детей|дети) (\w+ )?(можно|пить|давать|дать|налива\w*|пробовать)"
    r"|(месяц|недел)\w* беремен|" + _TERM + r"|how old|legal age)"
)

# «сколько можно в день», «безопасная норма в неделю» — not «красное на каждый день».
_DAILY = re.compile(_B + r"(в день|в неделю|ежедневно|каждый день|per day|a day|a week)")
_AMOUNT = re.compile(_B + r"(сколько|можно|норм[аы]|вред|безопасн|how much|how many|safe)")

# Subjects a wine shop's sommelier does not discuss: other goods and drinks, news, tasks.
OFFTOPIC_LEMMAS = word_set(
    """
    телефон смартфон айфон iphone андроид ноутбук компьютер комп планшет телевизор наушники
    приставка playstation машина автомобиль авто велосипед самокат квартира ипотека кредит
    биткоин криптовалюта акция доллар евро погода дождь снег прогноз футбол хоккей матч
    чемпионат олимпиада фильм кино сериал книга роман музыка песня анекдот шутка стих стишок
    сочинение эссе резюме перевести перевод столица президент выборы политика война санкция
    пиво пивко водка виски вискарь коньяк ром джин текила абсент самогон настойка кофе чай
    сок лимонад газировка кола сигарета сигара вейп кальян кроссовки одежда платье куртка
    джинсы отель гостиница билет поезд самолёт самолет работа вакансия зарплата уроки
    домашка математика уравнение интеграл программирование программа код скрипт сайт
    гороскоп астрология такси стоматолог парикмахер кот кошка собака цветок цветочек розы
    тюльпан физика химия биология
    геометрия алгебра метро
    phone laptop computer car weather football movie film song joke poem beer vodka whisky
    whiskey rum gin tequila coffee tea job salary homework
    """
)


def lemma_set(words: Sequence[Word]) -> frozenset[str]:
    return frozenset(w.lemma for w in words) | frozenset(w.text for w in words)


def _health_words(words: Sequence[Word]) -> frozenset[str]:
    """The lemmas that may speak of health: not «доктор» before an initial or a word no
    dictionary knows («доктор Л рислинг», «доктор лузен» are a wine's name)."""
    return lemma_set(
        [
            w
            for at, w in enumerate(words)
            if not (w.lemma == "доктор" and at + 1 < len(words) and _names(words[at + 1]))
        ]
    )


def _names(word: Word) -> bool:
    return len(word.text) == 1 or word.text.isascii() or not word.known


def names_wine(words: Sequence[Word]) -> bool:
    return not lemma_set(words).isdisjoint(WINE_LEMMAS)


def names_alcohol(words: Sequence[Word]) -> bool:
    return not lemma_set(words).isdisjoint(ALCOHOL_LEMMAS)


def about_health(words: Sequence[Word], folded: str) -> bool:
    if not _health_words(words).isdisjoint(HEALTH_LEMMAS) or _HEALTH_PHRASES.search(folded):
        return True
    return bool(_DAILY.search(folded) and _AMOUNT.search(folded))


def health_sentences(text: str) -> list[str]:
    """The sentences of `text` (folded) that speak of health, age or safety."""
    found = []
    for sentence in re.split(r"(?<=[.!?…])\s+|\n+", fold(text)):
        if sentence.strip() and about_health(words_of(sentence), sentence):
            found.append(sentence.strip())
    return found


def offtopic_subject(words: Sequence[Word]) -> str | None:
    """A subject outside wine the message is about, if any («телефон», «пиво»)."""
    for word in words:
        if word.lemma in OFFTOPIC_LEMMAS:
            return word.lemma
        if word.text in OFFTOPIC_LEMMAS:
            return word.text
    return None
