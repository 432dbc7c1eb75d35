-- Congress of Vienna: each kind of term in a card's value on an issue (16.2, 20.7), read from
-- the explained sum the rules show when a power chooses where to play a card or whether to
-- debate. The Clash of Armies with the test fixture; the cards and issues of each test are
-- put in place by hand at the power's turn in the first Diplomacy Round.

local play = include("tests/lib/play.lua")

local FIXTURE = "tests/owner-fixture.ron"

local function fresh(t)
  return t:game { scenario = "clash-of-armies", overlay = FIXTURE }
end

local function turn_of(g, power)
  play.to_seat(g, "round_turn", power)
end

-- The label of playing `card` on `piece` for `power`, with the issue put at `space` ("table"
-- or "XX-n") first; the play is taken back.
local function negotiation(g, power, card, piece, space)
  turn_of(g, power)
  g:place(piece, "diplomacy", space)
  g:move_card(card, "hand." .. power)
  g:act("negotiate", card)
  local label
  for _, action in ipairs(g:prompt().actions) do
    if action.arg == piece then
      label = action.label
    end
  end
  g:act("back")
  return label
end

-- The label of `debater`'s debate with `card` after `player` plays `played` on `piece`.
local function debate(g, player, played, piece, debater, card)
  turn_of(g, player)
  g:place(piece, "diplomacy", "table")
  g:move_card(played, "hand." .. player)
  g:move_card(card, "hand." .. debater)
  g:act("negotiate", played)
  g:act("on", piece)
  if g:state() == "preempt" then
    g:act_as("FR", "pass")
  end
  while g:state() == "debate" and g:prompt().asks[1].seat ~= debater do
    g:act_as(g:prompt().asks[1].seat, "pass")
  end
  for _, action in ipairs(g:prompt().asks[1].actions) do
    if action.arg == card then
      return action.label
    end
  end
  return nil
end

local function has(t, label, text)
  t:ok(label and string.find(label, text, 1, true), string.format("%q in %q", text, tostring(label)))
end

local function lacks(t, label, text)
  t:ok(label and not string.find(label, text, 1, true), string.format("no %q in %q", text, tostring(label)))
end

-- A test of `rule`: each check on a fresh game, the label its first field gives for the
-- fields after it (`negotiation` or `debate`), which holds the text `has` or lacks `lacks`.
local function labels(rule, checks)
  test(rule, { instructions = 400000000, seconds = 20 }, function(t)
    for _, check in ipairs(checks) do
      local label = check[1](fresh(t), table.unpack(check, 2))
      if check.has then
        has(t, label, check.has)
      else
        lacks(t, label, check.lacks)
      end
    end
  end)
end

-- Rule: the printed value (16.2): HILL 3 for Britain, nothing else.
labels("16.2 the printed value", {
  { negotiation, "BR", "hill", "issue.italy", "table", has = "(3 Hill = 3)" },
})

-- Rule: a modifier for the card's own power (black diamond, L196): HUSKISSON +3 on
-- Liberalism/Absolutism when Britain plays it (L300), not when Russia does.
labels("16.2 the card's own power's modifier (black diamond)", {
  { negotiation, "BR", "huskisson", "issue.lib_abs", "table", has = "(2 Huskisson + 3 Liberalism / Absolutism = 5)" },
  { negotiation, "RU", "huskisson", "issue.lib_abs", "table", has = "(2 Huskisson = 2)" },
})

-- Rule: a modifier for every player by issue (white feather, L223, L266): PONIATOWSKI +2 on
-- Poland, whoever plays it.
labels("16.2 every player's modifier by issue (white feather)", {
  { negotiation, "RU", "poniatowski", "issue.poland", "table", has = "(3 Poniatowski + 2 Poland (every player) = 5)" },
})

-- Rule: a modifier by the track the issue is on (L321-L325): GRAHAM +1 on an issue on the
-- British track, for any power; nothing elsewhere.
labels("16.2 every player's modifier by track", {
  { negotiation, "RU", "graham", "issue.italy", "BR-3", has = "+ 1 issue on the British track" },
  { negotiation, "RU", "graham", "issue.italy", "table", lacks = "British track" },
})

-- Rule: a modifier for one power on one issue (L286): FRIEDRICH AUGUST counts 6 for Saxony
-- in the French hand (2 printed + 4), 2 for anyone else.
labels("16.2 a modifier for one power and issue", {
  { negotiation, "FR", "friedrich_august", "issue.saxony", "table", has = "+ 4 Saxony for France = 6)" },
  { negotiation, "RU", "friedrich_august", "issue.saxony", "table", lacks = "Saxony for" },
})

-- Rule: a penalty for the power that plays it (L227-L233): DAVOUT -2 for any Allied power,
-- STADION -1 for France.
labels("16.2 penalties", {
  { negotiation, "RU", "davout", "issue.italy", "table", has = "(5 Davout − 2 played by Russia = 3)" },
  { negotiation, "FR", "stadion", "issue.italy", "table", has = "(4 Stadion − 1 played by France = 3)" },
})

-- Rule: the French National Advantage (L318): -1 to any other power's card on an issue on
-- the French track; France's own cards are not touched.
labels("16.2 the French National Advantage", {
  { negotiation, "RU", "hill", "issue.italy", "FR-3", has = "(3 Hill − 1 French National Advantage (issue on the French track) = 2)" },
  { negotiation, "FR", "hill", "issue.italy", "FR-3", has = "(3 Hill = 3)" },
})

-- Rule: a bonus when the card debates (20.7, L1637): NESSELRODE +1 when debating, not when
-- negotiating.
labels("20.7 a modifier when debating", {
  { debate, "FR", "murat", "issue.italy", "RU", "nesselrode", has = "+ 1 when debating" },
  { negotiation, "RU", "nesselrode", "issue.italy", "table", lacks = "when debating" },
})

-- Rule: the Austrian National Advantage (L266-L268, L290): +1 when Austria debates with an
-- Austrian card; not with another power's card, not when negotiating.
labels("16.2 the Austrian National Advantage", {
  { debate, "FR", "murat", "issue.italy", "AU", "bellegarde", has = "+ 1 Austrian National Advantage (debate)" },
  { debate, "FR", "murat", "issue.italy", "AU", "hill", lacks = "Austrian National Advantage" },
  { negotiation, "AU", "bellegarde", "issue.italy", "table", lacks = "Austrian National Advantage" },
})
