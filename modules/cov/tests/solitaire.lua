-- Congress of Vienna's solitaire seatings (Playbook 19-23): the deal onto the displays, the
-- Wager and every play of the Diplomacy Phase from them, the War Phase's cards, the
-- reserves, the battle-card order, Fog of War, Handicap cards and the bots' chart dice.
-- Each test plays The Clash of Armies (turn 5, August 1813) with the test fixture's
-- placeholder owner data, the first legal action deciding whatever the test does not; a
-- test that needs particular cards stacks the deck and the hands by hand first, as a tester
-- would at the table (play.stack), and gives the fate die's faces (the fixture's die: 1 "C or
-- lowest-lettered", 2 "AB", 3 "DE", 4 "ABC", 5 "CDE", 6 "all except C").

local util = include("@lib/util.lua")
local play = include("tests/lib/play.lua")

local FIXTURE = "tests/owner-fixture.ron"
local ALL = 6

local function game(t, seating, options, scenario)
  local opts = { seating = seating }
  for k, v in pairs(options or {}) do
    opts[k] = v
  end
  return t:game { scenario = scenario or "clash-of-armies", overlay = FIXTURE, options = opts }
end

-- The cards of a side's display: its spaces, face up or down, and its draw pile.
local function display_cards(g, side)
  local list = {}
  for _, what in ipairs({ "A", "A.down", "B", "B.down", "D", "D.down", "E", "E.down", "C.up", "C", "military" }) do
    for _, card in ipairs(g:zone("cdgsm." .. side .. "." .. what)) do
      list[#list + 1] = card
    end
  end
  return list
end

local function count_lines(g, text)
  return #play.lines(g, text)
end

-- Rule: the Coalition's single hand, the three Allied hand sizes less five (20.2 L1525, 21.2
-- L1785, 22.1 L1982, 23 L2013), less ten or nothing by option (20.13 #3, 21.12 #3); France's
-- normal hand (L1531, L1789); both laid out as displays (19.2) with the Leaders beside, the
-- Initial Phase's cards kept apart until the Wager is over (L1428). Set-up: the Clash
-- (hand sizes Russia 11, Britain 13, Austria 11, France 13), each seating, played to the
-- first Wager card. Expected: 11 + 13 + 11 - 5 = 30 cards on the Coalition's display (35
-- with minus-0, 25 with minus-10), 13 on France's, the Leaders beside them, and A-5's cards
-- still in the hands.
test("20.2 the Coalition's display holds 11 + 13 + 11 - 5 = 30 cards, France's 13", { instructions = 800000000, seconds = 40 },
  function(t)
    local cases = {
      { "solo-vs-allied-bot", nil, 30 }, { "solo-vs-french-bot", nil, 30 }, { "solo-fog-of-war", nil, 30 },
      { "solo-allied-power", { human = "RU" }, 30 },
      { "solo-vs-french-bot", { ["solitaire.coalition_cards"] = "minus-0" }, 35 },
      { "solo-vs-allied-bot", { ["solitaire.coalition_cards"] = "minus-10" }, 25 },
    }
    for _, case in ipairs(cases) do
      local g = game(t, case[1], case[2])
      play.to(g, "cdgsm_play")
      local label = case[1] .. " " .. tostring(case[3])
      t:eq(#display_cards(g, "allies"), case[3], label .. ": the Coalition's display")
      t:eq(#display_cards(g, "FR"), 13, label .. ": France's display")
      t:eq(g:zone("cdgsm.FR.beside"), { "napoleon" }, label)
      t:eq(#g:zone("cdgsm.allies.beside"), 3, label .. ": the three Allied Leaders")
      t:eq(count_lines(g, "The Coalition's cards: Russia 11 + Britain 13 + Austria 11 - "), 1, label)
      for power, card in pairs({ RU = "friedrich_wilhelm_iii", AU = "kolowrat", BR = "huskisson", FR = "gaudin" }) do
        t:ok(util.contains(g:zone("hand." .. power), card), label .. ": A-5's card waits in the hand: " .. card)
      end
    end
  end)

-- Plays the Wager from stacked displays: at the Initial Phase's last question (Austria at
-- War's place in the Clash) France is left `fr` alone, the Coalition the three Allied
-- cards; the fate die shows "all except C". Returns the game once the Wager is over.
local function wager(t, seating, fr, allied, order)
  local g = game(t, seating)
  play.to(g, "clash")
  play.stack(g, { FR = { fr }, allies = { allied.RU, allied.AU, allied.BR } })
  play.to(g, "cdgsm_play", { ALL })
  for _, power in ipairs(order) do
    local p = g:prompt()
    t:eq(p.seat, power, "the Wager's order")
    g:act("play", power == "FR" and fr or allied[power], { ALL })
  end
  return g
end

-- Rule: the solitaire Wager from the displays (19.3; 21.3 L1798: the Coalition's three cards
-- first, then France; 20.3 L1541: France first). Each card lies face down until all are
-- laid. An Allied winner places at the highest Allied value less France's (20.3 L1547, 21.3
-- L1804), not high - low; a tie goes to Britain, else Austria, else Russia, never France
-- (20.2 L1521). The Initial Phase's cards then join the displays (19.2). Set-up: France holds
-- FOUCHÉ (3) or DAVOUT (5), the Coalition BLÜCHER (5), VON GENTZ (2) and LORD LIVERPOOL (4).
-- Expected: Russia wins by 5 - 3 = 2 (high - low would give 3); France and Russia tied at 5:
-- Russia wins, at 0; the cards were secret until shown.
test("20/21 the Wager from the displays: order, secrecy, the solitaire distance and the tie order",
  { instructions = 800000000, seconds = 40 }, function(t)
    local allied = { RU = "blucher", AU = "gentz", BR = "liverpool" }
    local g = wager(t, "solo-vs-french-bot", "fouche", allied, { "BR", "RU", "AU", "FR" })
    t:eq(count_lines(g, "Russia wins the Wager by 2."), 1)
    t:eq(count_lines(g, "The Wager: France Fouché 3, Russia Blücher 5, Britain Lord Liverpool 4, Austria Von Gentz 2."), 1)
    t:eq(#play.lines(g, "You lay Blücher face down for the Wager.", "FR"), 0, "France does not read Russia's card")
    t:eq(#play.lines(g, "You lay Blücher face down for the Wager.", "RU"), 1)
    t:eq(count_lines(g, "The Coalition's Initial Phase cards after the Wager (19.2)"), 1)
    t:ok(not util.contains(g:zone("hand.RU"), "friedrich_wilhelm_iii"), "A-5's card left the hand after the Wager")

    g = wager(t, "solo-vs-french-bot", "davout", allied, { "BR", "RU", "AU", "FR" })
    t:eq(count_lines(g, "the Wager is tied; by the scenario's tie rule Russia wins it."), 1)
    t:eq(count_lines(g, "Russia wins the Wager by 0."), 1)

    g = wager(t, "solo-vs-allied-bot", "fouche", allied, { "FR", "BR", "RU", "AU" })
    t:eq(count_lines(g, "Russia wins the Wager by 2."), 1, "20: France lays first")
  end)
