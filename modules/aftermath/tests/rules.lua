-- Napoleon: Aftermath module tests: one per rule and special case of the seed rules, named
-- after it, and the seed's three worked examples. Most tests start from the same dispensed
-- table (see `ready`) and arrange the circle by hand before playing the card under test.

-- The Napoleon track's figures are owner data; the tests play with the demo's.
local DEMO = "tests/demo.ron"

local util = include("@lib/util.lua")
local board = include("rules/board.lua")

-- A game through the dispensing, always the same way: P1 keeps the festivities; the
-- negotiation marker goes to Warsaw; the Austrian and Prussian armies to Germany, the
-- Russian army to Poland; Austria and Britain join France (coalition A), Prussia joins
-- Russia (coalition B). P1 is then to play.
local function ready(t, seed, powers, bare)
  local g = t:game { overlay = not bare and DEMO or nil, seed = seed or 1, options = { first = "P1", powers = powers } }
  g:act("keep_festivities")
  g:act("place_negotiation", "warsaw")
  g:act("place_army", { power = "AU", country = "germany" })
  g:act("place_army", { power = "PR", country = "germany" })
  g:act("place_army", { power = "RU", country = "poland" })
  g:act("place_tokens", { power = "AU", coalition = "coalition.A" })
  g:act("place_tokens", { power = "BR", coalition = "coalition.A" })
  g:act("place_tokens", { power = "PR", coalition = "coalition.B" })
  return g
end

-- Sets the count of one kind of token in a box, by hand.
local function set(g, box, kind, n)
  local delta = n - g:units(box, kind)
  if delta ~= 0 then
    g:add_units(box, kind, delta)
  end
end

-- Empties both coalitions, then puts `tokens` ({["coalition.A"] = {FR = 5}, ...}) there.
local function circle(g, tokens)
  for _, box in ipairs({ "coalition.A", "coalition.B" }) do
    for _, power in ipairs({ "AU", "BR", "FR", "PR", "RU" }) do
      for _, suffix in ipairs({ "", "_half", "_negated" }) do
        set(g, box, power .. suffix, (tokens[box] or {})[power .. suffix] or 0)
      end
    end
  end
end

-- Puts `card` in the hand of the seat to play and plays it.
local function play(g, card)
  local seat = g:prompt().seat
  g:move_card(card, "hand." .. seat)
  g:act("play", card)
end

-- The power that captured `province`, or nil: the rules' own reading, of the game's boxes.
local function captured(g, province)
  local boxes = g:json().boxes
  return board.captured_by({ box = function(_, box) return boxes[box] end }, province)
end

-- Every province but Warsaw.
local ALL_BUT_WARSAW = { "rhineland", "westphalia", "hanover", "belgium", "atlantic_trade", "the_channel", "abolition",
  "iberia", "malta", "lombardy", "naples", "ionian", "posen", "norway", "finland" }

-- Gives each province of `provinces` to `power`, captured (one of its tokens there).
local function take(g, power, provinces)
  for _, province in ipairs(provinces) do
    set(g, "province." .. province, power, 1)
  end
end

-- The negotiation of a Region card: the circle `tokens` (as `circle`), the armies `armies`
-- placed (a country by power), the negotiation marker in `province`; returns who captured
-- it.
local function negotiation(g, tokens, province, armies)
  circle(g, tokens)
  for power, country in pairs(armies or {}) do
    g:place("army." .. power, "countries", country)
  end
  g:place("marker.negotiation", "provinces", province)
  play(g, "region_1")
  return captured(g, province)
end

-- Plays the Influence card `card` and negates `power`'s token (`token`: "full" or "half").
local function negate(g, card, power, token)
  play(g, card)
  g:act("negate", { power = power, token = token })
end

local function space_of(g, piece)
  local _, space = g:space_of(piece)
  return space
end

-- Set-up ------------------------------------------------------------------------------

-- Rule: each player gets one Great Power face down; the other three are set aside.
test("set-up deals one Great Power card to each player and sets three aside", function(t)
  local g = t:game { overlay = DEMO }
  t:eq(#g:zone("power.P1"), 1)
  t:eq(#g:zone("power.P2"), 1)
  t:eq(#g:zone("powers.aside"), 3)
  t:eq(g:json("P1").zones["power.P2"].cards, { "?" }, "P1 cannot see P2's power")
end)

-- Rule: the fifty cards are shuffled and five dealt to each player; the rest is the deck.
test("set-up deals five cards to each player from the fifty", function(t)
  local g = t:game { overlay = DEMO }
  t:eq(#g:zone("hand.P1"), 5)
  t:eq(#g:zone("hand.P2"), 5)
  t:eq(#g:zone("deck"), 40)
end)

-- Rule: five French tokens form one coalition and six Russian tokens the other; the
-- Napoleon marker starts on the Retreat from Moscow.
test("set-up forms the French and Russian coalitions and places the Napoleon marker", function(t)
  local g = t:game { overlay = DEMO }
  t:eq(g:units("coalition.A", "FR"), 5)
  t:eq(g:units("coalition.B", "RU"), 6)
  t:eq(space_of(g, "marker.napoleon"), "retreat_from_moscow")
end)

-- Rule: beginning with the first player, the players alternate selecting a marker.
test("markers are dispensed alternately beginning with the first player", function(t)
  local g = t:game { overlay = DEMO, options = { first = "P2" } }
  t:eq(g:prompt().seat, "P2")
  g:act("keep_festivities")
  t:eq(g:prompt().seat, "P1")
  t:eq(space_of(g, "marker.festivities"), "P2", "the selecting player keeps the festivities marker")
end)

-- Rule: the negotiation marker may go to any province (all sixteen are offered).
test("the negotiation marker may be placed in any province", function(t)
  local g = t:game { overlay = DEMO }
  t:eq(util.count(g:legal(), function(a) return a:find("^place_negotiation") ~= nil end), 16)
end)

-- Rule: an army goes to a country where its power has an interest, or to Germany.
test("an army is placed in a country of interest or in Germany", function(t)
  local g = t:game { overlay = DEMO }
  local prussia = {}
  for _, action in ipairs(g:prompt().actions) do
    if action.name == "place_army" and action.arg.power == "PR" then
      prussia[#prussia + 1] = action.arg.country
    end
  end
  table.sort(prussia)
  t:eq(prussia, { "germany", "poland" })
end)

-- Rule: a dispensed token goes to a coalition together with four of like kind.
test("a dispensed token joins a coalition with four of like kind", function(t)
  local g = t:game { overlay = DEMO }
  g:act("place_tokens", { power = "BR", coalition = "coalition.B" })
  t:eq(g:units("coalition.B", "BR"), 5)
  t:eq(g:units("supply", "BR"), 4)
end)

-- Rule: once the eight markers are dispensed, the first player takes a turn.
test("the first player plays once every marker is dispensed", function(t)
  local g = ready(t)
  t:eq(g:state(), "play")
  t:eq(g:prompt().seat, "P1")
end)

-- Turns -------------------------------------------------------------------------------

-- Rule: a turn plays a card, discards it and draws a replacement; turns alternate.
test("a turn plays a card, discards it and draws a replacement", function(t)
  local g = ready(t)
  g:move_card("napoleon_1", "hand.P1")
  local hand, deck = #g:zone("hand.P1"), #g:zone("deck")
  play(g, "napoleon_1")
  t:eq(g:zone("discard")[1], "napoleon_1")
  t:eq(#g:zone("hand.P1"), hand, "one played, one drawn")
  t:eq(#g:zone("deck"), deck - 1)
  t:eq(g:prompt().seat, "P2")
end)

-- Rule: no card is drawn once the deck is empty.
test("no card is drawn when the deck is empty", function(t)
  local g = ready(t)
  for _, card in ipairs(g:zone("deck")) do
    g:move_card(card, "discard")
  end
  g:move_card("napoleon_1", "hand.P1")
  local hand = #g:zone("hand.P1")
  play(g, "napoleon_1")
  t:eq(#g:zone("hand.P1"), hand - 1)
end)

-- Napoleon ----------------------------------------------------------------------------

-- Rule: a Napoleon card moves the marker one space; tokens are added as the space says,
-- kept with their power's coalition.
test("a Napoleon card moves the marker and adds tokens as the track says", function(t)
  local g = ready(t)
  play(g, "napoleon_1")
  t:eq(space_of(g, "marker.napoleon"), "leipzig")
  t:eq(g:units("coalition.A", "AU"), 6)
  t:eq(g:units("coalition.B", "PR"), 6)
  t:eq(g:units("coalition.B", "RU"), 7)
end)

-- Rule: the track runs from the Retreat from Moscow to Waterloo and directs the tokens
-- (L41, L91), but the seed prints none of the spaces between: without an owner's overlay,
-- the first card that moves the marker there stops and asks for the space's figures.
test("the Napoleon track's tokens are the owner's, asked when the marker enters a space", function(t)
  local g = ready(t, nil, nil, true)
  g:move_card("napoleon_1", "hand." .. g:prompt().seat)
  local ok, why = g:try("play", "napoleon_1")
  t:eq(ok, false)
  t:ok(string.find(why, "space 'napoleon_track/leipzig': property 'tokens' is not entered yet", 1, true), why)
end)

-- Special situation: a power whose last token is removed gets one back from off board.
test("a power's last token removed by the track is replenished", function(t)
  local g = ready(t)
  g:place("marker.napoleon", "napoleon_track", "leipzig")
  set(g, "coalition.A", "FR", 2)
  play(g, "napoleon_1")
  t:eq(space_of(g, "marker.napoleon"), "fall_of_paris")
  t:eq(g:units("coalition.A", "FR"), 1, "two removed, one put back")
end)

-- Rule: when Napoleon returns, all three armies leave the board.
test("Napoleon's return removes the armies", function(t)
  local g = ready(t)
  g:place("marker.napoleon", "napoleon_track", "elba")
  play(g, "napoleon_1")
  for _, power in ipairs({ "AU", "PR", "RU" }) do
    t:eq(g:space_of("army." .. power), nil, power .. " army")
  end
end)

-- Rule: at Waterloo a victor is drawn from the three set-aside Great Power cards.
test("Waterloo draws a set-aside Great Power card", function(t)
  local g = ready(t)
  g:place("marker.napoleon", "napoleon_track", "hundred_days")
  play(g, "napoleon_1")
  t:eq(#g:zone("powers.aside"), 2)
  t:eq(#g:zone("revealed"), 1)
  local log = g:log()
  t:ok(log[#log]:find("^Waterloo: .* is drawn as the victor") ~= nil, log[#log])
end)

-- Diplomat ----------------------------------------------------------------------------

-- Rule: a Diplomat card moves all the tokens of one of its two powers to the other coalition.
test("a diplomat moves all of one power's tokens to the other coalition", function(t)
  local g = ready(t)
  play(g, "diplomat_au_br")
  g:act("move", "AU")
  t:eq(g:units("coalition.A", "AU"), 0)
  t:eq(g:units("coalition.B", "AU"), 5)
end)

-- Rule: a diplomat move may not leave a coalition empty.
test("a diplomat move may not empty a coalition", function(t)
  local g = ready(t)
  circle(g, { ["coalition.A"] = { FR = 5, AU = 5, BR = 5, PR = 5 }, ["coalition.B"] = { RU = 6 } })
  play(g, "diplomat_au_ru")
  t:eq(g:units("coalition.B", "RU"), 6, "Russia alone cannot leave coalition B")
  t:eq(g:units("coalition.B", "AU"), 5, "so Austria, the only legal move, moves")
end)

-- Army --------------------------------------------------------------------------------

-- Rule: an Army card moves one of its powers' armies to another country of interest or Germany.
test("an army moves to a country of interest or to Germany", function(t)
  local g = ready(t)
  play(g, "army_pr_ru_1")
  local moves = {}
  for _, action in ipairs(g:prompt().actions) do
    moves[#moves + 1] = action.arg.power .. ":" .. action.arg.country
  end
  table.sort(moves)
  t:eq(moves, { "PR:poland", "RU:finland", "RU:germany", "RU:ionian", "RU:malta", "RU:norway" })
  g:act("move", { power = "RU", country = "malta" })
  t:eq(space_of(g, "army.RU"), "malta")
end)

-- Rule: an Army card may bring an off-board army back onto the board.
test("an army card may bring an off-board army back", function(t)
  local g = ready(t)
  g:place("marker.napoleon", "napoleon_track", "elba")
  play(g, "napoleon_1")
  play(g, "army_au_pr_1")
  g:act("move", { power = "AU", country = "italy" })
  t:eq(space_of(g, "army.AU"), "italy")
end)

-- Influence ---------------------------------------------------------------------------

-- Rule: with the negotiation marker in a region or country the card names, one full token
-- is negated (flipped).
test("influence where the card names negates a full token", function(t)
  local g = ready(t)
  negate(g, "influence_sweden", "RU", "full")
  t:eq(g:units("coalition.B", "RU_negated"), 1)
  t:eq(g:units("coalition.B", "RU"), 5)
end)

-- Rule: elsewhere, half a token is negated (a -½ marker next to it).
test("influence elsewhere negates half a token", function(t)
  local g = ready(t)
  negate(g, "influence_murat", "RU", "full")
  t:eq(g:units("coalition.B", "RU_half"), 1)
end)

-- Rule: a half-negated token may be half negated again; the effect is cumulative.
test("half negation is cumulative", function(t)
  local g = ready(t)
  set(g, "coalition.B", "RU", 5)
  set(g, "coalition.B", "RU_half", 1)
  negate(g, "influence_murat", "RU", "half")
  t:eq(g:units("coalition.B", "RU_negated"), 1)
  t:eq(g:units("coalition.B", "RU_half"), 0)
end)

-- Rule: a fully negated token may not be negated again.
test("a fully negated token is not negated again", function(t)
  local g = ready(t)
  set(g, "coalition.B", "RU", 0)
  set(g, "coalition.B", "RU_negated", 6)
  play(g, "influence_sweden")
  t:eq(util.count(g:prompt().actions, function(a) return a.arg.power == "RU" end), 0)
end)

-- Rule: if no remaining token can be negated, the player passes.
test("influence passes when no token can be negated", function(t)
  local g = ready(t)
  circle(g, {
    ["coalition.A"] = { FR_negated = 5, AU_negated = 5, BR_negated = 5 },
    ["coalition.B"] = { RU_negated = 6, PR_negated = 5 },
  })
  play(g, "influence_sweden")
  t:eq(g:prompt().seat, "P2", "the turn passed")
  local log = g:log()
  t:eq(log[#log], "No token can be negated: pass.")
end)

-- Rule: British Money negates fully in any region, but never a British token.
test("British Money negates fully anywhere but never against Britain", function(t)
  local g = ready(t)
  g:place("marker.negotiation", "provinces", "malta")
  play(g, "influence_british_money")
  t:eq(util.count(g:prompt().actions, function(a) return a.arg.power == "BR" end), 0)
  g:act("negate", { power = "FR", token = "full" })
  t:eq(g:units("coalition.A", "FR_negated"), 1)
end)

-- Rule: Murat may not be used against France.
test("Murat is never used against France", function(t)
  local g = ready(t)
  play(g, "influence_murat")
  t:eq(util.count(g:prompt().actions, function(a) return a.arg.power == "FR" end), 0)
end)

-- Region and negotiation -------------------------------------------------------------

--- Declares the test `name`: from the `ready` table, the negotiation of `province` with the
--- circle `tokens` and the armies `armies` (as `negotiation`) is won by `winner` (`why`: the
--- reckoning, shown if it is not).
local function captures(name, tokens, province, armies, winner, why)
  test(name, function(t)
    t:eq(negotiation(ready(t), tokens, province, armies), winner, why)
  end)
end

-- Rule: the winning coalition is the one with more great powers; its candidates are those
-- with an interest in the province; the one with the most capital wins and captures it.
captures("the winning coalition's interested candidate with most capital captures the province",
  { ["coalition.A"] = { FR = 5, AU = 4, BR = 5 }, ["coalition.B"] = { RU = 6, PR = 5 } }, "lombardy", nil,
  "FR", "France 5 against Austria 4 (Britain has no interest in Italy)")

-- Rule: armies count as capital, negated tokens do not; a tie goes to the festivities holder.
captures("armies count as capital and negated tokens do not",
  { ["coalition.A"] = { FR = 4, FR_negated = 1, AU = 4, BR = 5 }, ["coalition.B"] = { RU = 6, PR = 5 } }, "lombardy",
  { AU = "italy" }, "AU", "Austria 4 + its army = 5 against France 5 - 1 negated = 4")

-- Rule: with no candidate interested, every power of the winning coalition is a candidate.
captures("with no interested candidate every winning power is a candidate",
  { ["coalition.A"] = { FR = 5, AU = 3, PR = 2 }, ["coalition.B"] = { RU = 6, BR = 5 } }, "finland", nil,
  "FR", "only Russia is interested in Finland, and it lost")

-- Rule: a candidate whose tokens are all negated can still win.
test("a candidate with every token negated can still win", function(t)
  local g = ready(t)
  g:remove_piece("army.RU")
  t:eq(negotiation(g, { ["coalition.A"] = { FR = 5, AU = 5, RU_negated = 6 }, ["coalition.B"] = { BR = 5, PR = 5 } },
    "finland"), "RU")
end)

-- Rule: negated tokens are restored once the negotiation is resolved.
test("negated tokens are restored after a negotiation", function(t)
  local g = ready(t)
  set(g, "coalition.B", "RU", 4)
  set(g, "coalition.B", "RU_half", 1)
  set(g, "coalition.B", "RU_negated", 1)
  play(g, "region_1")
  t:eq(g:units("coalition.B", "RU_half"), 0)
  t:eq(g:units("coalition.B", "RU_negated"), 0)
end)

-- Special situation: the winner's last token captures the province and is replaced.
test("a winner's last token is replenished after it captures", function(t)
  local g = ready(t)
  local winner = negotiation(g, { ["coalition.A"] = { FR = 1, AU = 1, BR = 5 }, ["coalition.B"] = { RU = 6, PR = 5 } },
    "lombardy", { AU = "italy" })
  t:eq(winner, "AU")
  t:eq(g:units("coalition.A", "AU"), 1, "its last token left and one came back")
end)

-- Rule: after resolving, the marker moves to an open province of another region named on
-- the card. Seed example 1: the marker is in the Baltic; a card naming Baltic and North is
-- played; every North province is taken, so the marker must go to the Atlantic or the
-- Mediterranean.
test("seed example: the region card moves the marker away from full regions", function(t)
  local g = ready(t)
  take(g, "PR", { "rhineland", "westphalia", "hanover", "belgium" })
  play(g, "region_10")
  local regions = {}
  for _, action in ipairs(g:prompt().actions) do
    local space = action.arg
    local region = ({ atlantic_trade = "atlantic", the_channel = "atlantic", abolition = "atlantic",
      iberia = "atlantic", malta = "mediterranean", lombardy = "mediterranean", naples = "mediterranean",
      ionian = "mediterranean" })[space]
    regions[region or space] = true
  end
  t:eq(util.sorted_keys(regions), { "atlantic", "mediterranean" })
end)

-- Rule: if no other region has an open province, the marker moves within its region.
test("the marker stays in its region when no other region is open", function(t)
  local g = ready(t)
  take(g, "BR", { "rhineland", "westphalia", "hanover", "belgium", "atlantic_trade", "the_channel", "abolition", "iberia",
    "malta", "lombardy", "naples", "ionian" })
  play(g, "region_10")
  t:eq(g:legal(), { "move posen", "move norway", "move finland" })
end)

-- Rule: when no province is open anywhere, the game is over.
test("the game ends when every province is captured", function(t)
  local g = ready(t)
  take(g, "BR", ALL_BUT_WARSAW)
  play(g, "region_1")
  t:ok(g:result() ~= nil, "the game is over")
end)

-- Rule: in a tie the holder of the festivities marker decides, then gives the marker to the
-- other player. Seed example 2: the Netherlands; Austria, Britain and Russia against France
-- and Prussia; Austria (3 tokens and its army there) and Britain (5 tokens, one negated)
-- both have 4; the holder gives it to Austria and hands the marker over.
test("seed example: the Netherlands tie goes to Austria by the festivities marker", function(t)
  local g = ready(t)
  negotiation(g, { ["coalition.A"] = { AU = 3, BR = 4, BR_negated = 1, RU = 6 }, ["coalition.B"] = { FR = 5, PR = 5 } },
    "belgium", { AU = "netherlands" })
  t:eq(g:state(), "festivities")
  t:eq(g:prompt().seat, "P1", "P1 holds the festivities marker")
  t:eq(g:legal(), { "award AU", "award BR" }, "Russia has no interest in the Netherlands")
  g:act("award", "AU")
  t:eq(captured(g, "belgium"), "AU")
  t:eq(space_of(g, "marker.festivities"), "P2", "the marker is handed over")
end)

-- Scoring -----------------------------------------------------------------------------

-- Rule: a power scores one per province, two where its country counts double. Seed
-- example 3: Russia with two provinces in Poland and one in Malta scores 5.
test("seed example: Russia scores 5 with two Polish provinces and Malta", function(t)
  local g = ready(t)
  take(g, "RU", { "warsaw", "posen", "malta" })
  t:eq(g:json().view.scores_by_power.RU, 5)
end)

-- Rule: German provinces count double for Prussia.
test("German provinces count double for Prussia", function(t)
  local g = ready(t)
  take(g, "PR", { "rhineland", "warsaw", "belgium" })
  t:eq(g:json().view.scores_by_power.PR, 5)
end)

-- Captures every province but Warsaw for Britain and leaves Russia to take Warsaw.
local function last_negotiation(g)
  take(g, "BR", ALL_BUT_WARSAW)
  circle(g, { ["coalition.A"] = { RU = 6, AU = 1, PR = 1 }, ["coalition.B"] = { FR = 5, BR = 5 } })
  play(g, "region_1")
end

-- Rule: at the end the Great Powers are shown; the player of the higher-scoring power wins.
test("the player of the higher-scoring Great Power wins", function(t)
  local g = ready(t, 1, { P1 = "RU", P2 = "FR" })
  last_negotiation(g)
  local result = g:result()
  t:eq(result.scores, { P1 = 2, P2 = 0 }, "Russia took Warsaw, which counts double for it")
  t:eq(result.winners, { "P1" })
  t:eq(#g:zone("revealed"), 2, "both Great Powers are shown")
end)

-- Rule: in case of a tie, the player with the festivities marker wins.
test("a scoring tie goes to the holder of the festivities marker", function(t)
  local g = ready(t, 1, { P1 = "AU", P2 = "PR" })
  g:place("marker.festivities", "festivities", "P2")
  last_negotiation(g)
  local result = g:result()
  t:eq(result.scores, { P1 = 0, P2 = 0 })
  t:eq(result.winners, { "P2" })
end)

-- Bot ---------------------------------------------------------------------------------

-- The bot plays either seat to the end, with a reason for every decision.
test("the bot plays both seats to the end and explains every decision", function(t)
  for seed = 1, 3 do
    local g = t:game { overlay = DEMO, seed = seed, seats = { P1 = "bot", P2 = "bot" } }
    for _ = 1, 200 do
      if g:prompt() == nil then
        break
      end
      local choice, reasons = g:bot()
      t:ok(choice ~= nil, "a bot decides every prompt")
      t:ok(#reasons > 0, "every decision has a reason")
    end
    t:ok(g:result() ~= nil, "seed " .. seed .. " finished")
  end
end)

-- The bot keeps hidden information hidden: dealing the opponent another Great Power does
-- not change what the bot would do, nor what it says; and reading the opponent's private
-- identity is an error.
test("the bot cannot see its opponent's Great Power", function(t)
  local g = ready(t, 5, { P1 = "RU", P2 = "FR" })
  local before = { g:bot_choice("diplomat") }
  local other = ready(t, 5, { P1 = "RU", P2 = "AU" })
  local after = { other:bot_choice("diplomat") }
  t:eq(after, before)
  t:eq(g:private("P1"), { power = "RU" })
  t:eq(g:json("P1").private, { P1 = { power = "RU" } }, "P1 sees its own identity only")
end)

-- Each player is told its Great Power in a line of the log that only it may read.
test("each player alone is told its Great Power", function(t)
  local g = ready(t, 2, { P1 = "BR", P2 = "PR" })
  local function told(seat)
    return util.filter(g:log(seat), function(line)
      return line:find("Your Great Power", 1, true) ~= nil
    end)
  end
  t:eq(told("P1"), { "Your Great Power is Britain." })
  t:eq(told("P2"), { "Your Great Power is Prussia." })
end)
