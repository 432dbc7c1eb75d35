-- Congress of Vienna: the named readings a game is set up with. Each is a rule the Playbook
-- leaves open or lets the players choose (a difficulty option), or a bot's reading of an
-- ambiguous chart step, with its default first; RULES-GAPS.md gives each its Playbook lines.
-- A game takes them as set-up options, e.g.
--   chancery sim modules/cov --scenario lutzen-bautzen --option lutzen_france.debate_table=as-printed
--   chancery new modules/cov --scenario clash-of-armies --option seating=solo-vs-french-bot --option solitaire.handicap=2

local options = {}

options.OPTIONS = {
  -- The solitaire seatings of 20-23 and the card-driven solo method (19).
  ["solitaire.coalition_cards"] = {
    doc = "20.13 #3 (L1751), 21.12 #3 (L1962): how many cards the Coalition's display is dealt, the three Allied hand sizes less 5, 10 or 0",
    values = {
      ["minus-5"] = "the three Allied hand sizes less five (20.2, 21.2, 22.1, 23)",
      ["minus-10"] = "less ten: a softer Allied bot (20.13), an extremely difficult French bot (21.12)",
      ["minus-0"] = "less nothing: an extremely difficult Allied bot (20.13), a softer French bot (21.12)",
    },
    default = "minus-5",
  },
  ["solitaire.handicap"] = {
    doc = "20.13 #2 (L1745), 21.12 #2 (L1954): Handicap cards dealt at the start of each turn to each Allied power the Allied bot plays (20: 1 or 2) or to the French bot (21: 1 to 3)",
    values = { ["0"] = "none", ["1"] = "one each", ["2"] = "two each", ["3"] = "three (the French bot only)" },
    default = "0",
  },
  ["solitaire.handicap_used"] = {
    doc = "21.12 #2 (L1958-L1960): what becomes of the Handicap cards at the end of the turn",
    values = {
      reshuffle = "all are shuffled back into the Handicap deck (20.13, 21.12)",
      discard = "each is discarded until the deck runs short, then the discards are shuffled into a new deck (21.12's alternative)",
    },
    default = "reshuffle",
  },
  ["solitaire.enhanced_french_bot"] = {
    doc = "21.12 #4 (L1964-L1966): the Enhanced French bot",
    values = {
      off = "not used",
      on = "while France's Card Hand Size is 12 or less and France does not lead in VP, once its Military pile has gone to its draw pile a French military or neutral battle card France plays in the Diplomacy Phase goes under its draw pile instead of the discard pile",
    },
    default = "off",
  },
  ["solitaire.battle_cards"] = {
    doc = "20.11.2 (L1711-L1717), 21.10.2 (L1912-L1918): a bot counts the cards its opponent has used, so the order in which the sides lay their battle cards",
    values = {
      ["person-first"] = "the side a person plays lays its cards first and they are shown before the bot's side lays its own (France first when people or bots play both)",
      together = "both sides lay in secret and the cards are revealed together, as with four players",
    },
    default = "person-first",
  },
  ["solitaire.debate_roll"] = {
    doc = "20.7 (L1617) and 21.6 (L1844): the bots' debate roll against M = 7 - the issue's space, \"less than M\" for the Allied bot, \"1 to M\" for the French bot",
    values = {
      ["as-printed"] = "the Allied bot debates on a roll below M, the French bot on a roll of M or less",
      ["at-most"] = "both debate on a roll of M or less",
      below = "both debate on a roll below M",
    },
    default = "as-printed",
  },
  ["cdgsm.bot_roll"] = {
    doc = "19.3 (L1432) against 21.5 (L1824, L1828): whether a bot rolls the fate die before it chooses to negotiate or trade",
    values = {
      first = "a bot that may start a trade rolls first and then chooses to negotiate or trade with the card (21.5's example); a person declares first",
      declare = "a bot declares negotiation or trade first, as a person does (19.3)",
    },
    default = "first",
  },
  ["cdgsm.refill"] = {
    doc = "19.3 step 5 against 20.7's example (L1637): which open space the turned-up top card of the draw pile takes",
    values = {
      ["in-order"] = "the open spaces are filled A, B, D, E in turn, the turned-up card first (19.3)",
      ["played-space"] = "the turned-up card takes the space of the card just played, the others are filled in turn face down (20.7's example: GAMBIER slides from C to E)",
    },
    default = "in-order",
  },
  ["cdgsm.trade_card"] = {
    doc = "19 (not said): where a card received in a trade goes when the sides play from their displays",
    values = {
      ["like-initial"] = "as the Initial Phase's cards after the Wager (19.2): a possibly usable military card to the Military pile while it is open, any other card shuffled into the draw pile C",
      ["top-face-up"] = "face up on top of the draw pile C, to come with the next result that makes C available",
    },
    default = "like-initial",
  },
  -- The French bot of 21.
  ["french_bot.trade_to"] = {
    doc = "21.5 (L1826-L1828): to which Allied power the French bot offers its trade (the example does not say; the three share one display)",
    values = {
      clockwise = "the first Allied power clockwise from France that may trade",
      random = "one of the Allied powers that may trade, at random",
    },
    default = "clockwise",
  },
  ["french_bot.withdraw_zero"] = {
    doc = "21.10.1 (L1904): what the French bot does when the modified IBD is exactly zero (the note settles only a negative and a positive one)",
    values = {
      die = "\"the inevitable 1d6\": France withdraws on 4-6",
      fight = "France fights",
    },
    default = "die",
  },
  ["french_bot.undecided"] = {
    doc = "21 (L1761, \"best judgment\"): a chart row whose condition the module cannot decide (the row's printed words, or a Rulebook limit the module lacks)",
    values = {
      no = "the row does not apply, and the reason says the players may overrule it by hand",
      yes = "the row applies",
    },
    default = "no",
  },
  -- The Allied bot of 20.
  ["allied_bot.undecided"] = {
    doc = "20 (L1490, \"best judgment\"): a chart row whose condition the module cannot decide (the row's printed words, or a Rulebook limit the module lacks)",
    values = {
      no = "the row does not apply, and the reason says the players may overrule it by hand",
      yes = "the row applies",
    },
    default = "no",
  },
  ["allied_bot.demobilize"] = {
    doc = "20.1.2 (L1513-L1515): whether Step 2 trades two fleets once a turn or again while Britain stays above the threshold",
    values = {
      once = "two fleets for 1 VP, once a turn, as the step reads",
      ["while-above"] = "again while Britain still has more fleets on the map than the threshold",
    },
    default = "once",
  },
  ["allied_bot.remaining"] = {
    doc = "20.5.1 (L1571-L1573): \"the Allied negotiations remaining\" of Step 6's pass, undefined in the text",
    values = {
      ["all-powers"] = "the rounds left to every Allied power still in the phase, this one included",
      ["this-power"] = "the rounds left to the passing power alone, this one included",
    },
    default = "all-powers",
  },
  ["allied_bot.debater_order"] = {
    doc = "20.7 (L1597 against L1611): the order in which equal priorities choose the Allied debater",
    values = {
      fixed = "Russia, Britain, Austria, as the rule lists them (L1597)",
      ["from-negotiator"] = "clockwise from the power that negotiated, as the example words it (L1611)",
    },
    default = "fixed",
  },
  ["allied_bot.low_priority"] = {
    doc = "22.1 (L1992): the Allied bot does not debate \"low priority issues negotiated by other Allied Powers\", which the text does not define",
    values = {
      skip = "in 22, the bot does not debate another Allied power's play on an issue that is on none of its Table 20.4 rows",
      debate = "the bot debates it as any other, by Table 20.7.b",
    },
    default = "skip",
  },
  -- The Lützen & Bautzen French bot (18.4).
  ["lutzen_france.trade_answer"] = {
    doc = "18.4.5.4 (L1275): the card France gives when it accepts Russia's offer",
    values = {
      ["green-letter"] = "any card whose Russian (green) letter is C or D, the lowest of them",
      ["russian-card"] = "only a Russian card whose Russian letter is C or D",
    },
    default = "green-letter",
  },
  ["lutzen_france.trade_round2"] = {
    doc = "18.4.5.4 (L1279-L1281): France cannot see whether Russia or Britain holds a French card",
    values = {
      ["assume-none"] = "France assumes they hold none and offers in Round 2",
      never = "France makes no Round 2 offer",
    },
    default = "assume-none",
  },
  ["lutzen_france.pass"] = {
    doc = "18.4.5.5 (L1285): whether the passing table lets France pass without a Debate marker",
    values = {
      ["after-debate"] = "France passes only when the rules let any power pass: after it debated (L388)",
      ["by-table"] = "France may pass whenever the table says so",
    },
    default = "after-debate",
  },
  ["lutzen_france.debate_table"] = {
    doc = "18.4.5.8 (L1316-L1324): the debate table's \"<=\"",
    values = {
      ["at-least"] = "France debates when it holds at least the number of non-military cards shown",
      ["as-printed"] = "France debates when it holds at most that number, as printed",
    },
    default = "at-least",
  },
  ["lutzen_france.support_limit"] = {
    doc = "18.4.6.1 (L1334): which Military Operations count for the Military Support limit",
    values = {
      ["with-napoleon"] = "France's funded operations, plus two for Napoleon's free one (the Grande Armee takes two markers, 18.4.7.4)",
      ["own-only"] = "France's funded operations only",
    },
    default = "with-napoleon",
  },
  ["lutzen_france.synergy"] = {
    doc = "18.4.7.7 (L1390): \"consider synergy\" when military cards are assigned to fronts",
    values = {
      ["napoleon-berthier"] = "NAPOLEON goes to the Grande Armee's battle and BERTHIER with him (their best-of-two dice)",
      none = "no card is tied to another",
    },
    default = "napoleon-berthier",
  },
}

-- Checks the options a game was set up with: an unknown value of a named option is an error
-- that names the values.
function options.check(given)
  for key, value in pairs(given or {}) do
    local option = options.OPTIONS[key]
    -- A value typed on the command line may come as a number ("solitaire.handicap=2").
    if option and option.values[tostring(value)] == nil then
      local names = {}
      for name in pairs(option.values) do
        names[#names + 1] = name
      end
      table.sort(names)
      error(string.format("option %s=%s: the values are %s (%s)", key, tostring(value), table.concat(names, ", "),
        option.doc), 0)
    end
  end
end

-- The named options a game was set up with (those given; the others take their default),
-- for `ctx.vars.options`.
function options.given(given)
  local list = {}
  for key in pairs(options.OPTIONS) do
    list[key] = given[key] ~= nil and tostring(given[key]) or nil
  end
  return list
end

-- The value of a named option in this game.
function options.get(ctx, key)
  local option = options.OPTIONS[key]
  if option == nil then
    error(string.format("no named option '%s'", tostring(key)), 0)
  end
  return (ctx.vars.options or {})[key] or option.default
end

return options
