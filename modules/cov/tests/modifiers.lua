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
  play.to(g, function(game)
    return game:state() == "round_turn" and game:prompt().seat == power
  end)
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

-- Rule: the printed value (16.2): HILL 3 for Britain, nothing else.
test("16.2 the printed value", { instructions = 400000000, seconds = 20 }, function(t)
  local g = fresh(t)
  has(t, negotiation(g, "BR", "hill", "issue.italy", "table"), "(3 Hill = 3)")
end)

-- Rule: a modifier for the card's own power (black diamond, L196): HUSKISSON +3 on
-- Liberalism/Absolutism when Britain plays it (L300), not when Russia does.
test("16.2 the card's own power's modifier (black diamond)", { instructions = 400000000, seconds = 20 }, function(t)
  local g = fresh(t)
  has(t, negotiation(g, "BR", "huskisson", "issue.lib_abs", "table"), "(2 Huskisson + 3 Liberalism / Absolutism = 5)")
  g = fresh(t)
  has(t, negotiation(g, "RU", "huskisson", "issue.lib_abs", "table"), "(2 Huskisson = 2)")
end)

-- Rule: a modifier for every player by issue (white feather, L223, L266): PONIATOWSKI +2 on
-- Poland, whoever plays it.
test("16.2 every player's modifier by issue (white feather)", { instructions = 400000000, seconds = 20 }, function(t)
  local g = fresh(t)
  has(t, negotiation(g, "RU", "poniatowski", "issue.poland", "table"), "(3 Poniatowski + 2 Poland (every player) = 5)")
end)

-- Rule: a modifier by the track the issue is on (L321-L325): GRAHAM +1 on an issue on the
-- British track, for any power; nothing elsewhere.
test("16.2 every player's modifier by track", { instructions = 400000000, seconds = 20 }, function(t)
  local g = fresh(t)
  local label = negotiation(g, "RU", "graham", "issue.italy", "BR-3")
  has(t, label, "+ 1 issue on the British track")
  g = fresh(t)
  lacks(t, negotiation(g, "RU", "graham", "issue.italy", "table"), "British track")
end)

-- Rule: a modifier for one power on one issue (L286): FRIEDRICH AUGUST counts 6 for Saxony
-- in the French hand (2 printed + 4), 2 for anyone else.
test("16.2 a modifier for one power and issue", { instructions = 400000000, seconds = 20 }, function(t)
  local g = fresh(t)
  has(t, negotiation(g, "FR", "friedrich_august", "issue.saxony", "table"), "+ 4 Saxony for France = 6)")
  g = fresh(t)
  lacks(t, negotiation(g, "RU", "friedrich_august", "issue.saxony", "table"), "Saxony for")
end)

-- Rule: a penalty for the power that plays it (L227-L233): DAVOUT -2 for any Allied power,
-- STADION -1 for France.
test("16.2 penalties", { instructions = 400000000, seconds = 20 }, function(t)
  local g = fresh(t)
  has(t, negotiation(g, "RU", "davout", "issue.italy", "table"), "(5 Davout − 2 played by Russia = 3)")
  g = fresh(t)
  has(t, negotiation(g, "FR", "stadion", "issue.italy", "table"), "(4 Stadion − 1 played by France = 3)")
end)

-- Rule: the French National Advantage (L318): -1 to any other power's card on an issue on
-- the French track; France's own cards are not touched.
test("16.2 the French National Advantage", { instructions = 400000000, seconds = 20 }, function(t)
  local g = fresh(t)
  has(t, negotiation(g, "RU", "hill", "issue.italy", "FR-3"), "(3 Hill − 1 French National Advantage (issue on the French track) = 2)")
  g = fresh(t)
  has(t, negotiation(g, "FR", "hill", "issue.italy", "FR-3"), "(3 Hill = 3)")
end)

-- Rule: a bonus when the card debates (20.7, L1637): NESSELRODE +1 when debating, not when
-- negotiating.
test("20.7 a modifier when debating", { instructions = 400000000, seconds = 20 }, function(t)
  local g = fresh(t)
  has(t, debate(g, "FR", "murat", "issue.italy", "RU", "nesselrode"), "+ 1 when debating")
  g = fresh(t)
  lacks(t, negotiation(g, "RU", "nesselrode", "issue.italy", "table"), "when debating")
end)

-- Rule: the Austrian National Advantage (L266-L268, L290): +1 when Austria debates with an
-- Austrian card; not with another power's card, not when negotiating.
test("16.2 the Austrian National Advantage", { instructions = 400000000, seconds = 20 }, function(t)
  local g = fresh(t)
  has(t, debate(g, "FR", "murat", "issue.italy", "AU", "bellegarde"), "+ 1 Austrian National Advantage (debate)")
  g = fresh(t)
  lacks(t, debate(g, "FR", "murat", "issue.italy", "AU", "hill"), "Austrian National Advantage")
  g = fresh(t)
  lacks(t, negotiation(g, "AU", "bellegarde", "issue.italy", "table"), "Austrian National Advantage")
end)
