-- Congress of Vienna: the Lützen & Bautzen French bot's Diplomacy Rounds and battles
-- (Playbook 18.4.5.4-18.4.5.8, 18.4.7.6-18.4.7.7), one test per table. Each plays the
-- scenario with the test fixture (its first legal actions) to the decision, puts France's
-- hand by hand, and asks the bot. Card values are the fixture's: DAVOUT 5 (L231), FOUCHÉ 3,
-- KOLOWRAT 2 (L304), LORD LIVERPOOL 4, the unidentified cards 3.

local play = include("tests/lib/play.lua")

local FIXTURE = "tests/owner-fixture.ron"

local function set_hand(g, power, cards)
  for _, card in ipairs(g:zone("hand." .. power)) do
    g:move_card(card, "deck")
  end
  for _, card in ipairs(cards) do
    g:move_card(card, "hand." .. power)
  end
end

local function reached(state, seat)
  return function(g)
    local p = g:prompt()
    return p ~= nil and g:state() == state and p.seat == seat
  end
end

local FOUR = { "davout", "fouche", "kolowrat", "unidentified_3" }
local SEVEN = { "davout", "fouche", "kolowrat", "liverpool", "stadion", "unidentified_1", "unidentified_2" }
local EIGHT = { "davout", "fouche", "kolowrat", "unidentified_3", "stadion", "nesselrode", "unidentified_1", "unidentified_8" }

local function with(list, more)
  local out = { "napoleon" }
  for _, card in ipairs(list) do
    out[#out + 1] = card
  end
  for _, card in ipairs(more or {}) do
    out[#out + 1] = card
  end
  return out
end

-- Rule: 18.4.5.5, the passing table (Round 1: pass with 7 non-military cards or fewer, 6 if
-- France won the Wager). Set-up: option lutzen_france.pass=by-table (France may pass
-- without a Debate marker), France's Round 1 turn, a hand of NAPOLÉON, two military cards
-- and 4, then 8, non-military cards. Expected: 4 → pass; 8 → France negotiates.
test("18.4.5.5 France passes by the table", { instructions = 800000000, seconds = 40 }, function(t)
  local g = t:game { scenario = "lutzen-bautzen", overlay = FIXTURE, options = { ["lutzen_france.pass"] = "by-table" } }
  play.to(g, reached("round_turn", "FR"))
  t:ok(string.find(g:prompt().text, "Round 1", 1, true), g:prompt().text)
  set_hand(g, "FR", with(FOUR, { "berthier", "eugene" }))
  local choice, reasons = g:bot_choice("lutzen_france", "FR")
  t:eq(choice, "pass", table.concat(reasons, " "))
  t:ok(string.find(table.concat(reasons, " "), "4 non-military cards <=", 1, true), "the reason names the count")
  set_hand(g, "FR", with(EIGHT, { "berthier", "eugene" }))
  choice, reasons = g:bot_choice("lutzen_france", "FR")
  t:ok(string.find(choice, "^negotiate "), choice .. ": " .. table.concat(reasons, " "))
end)

-- Rule: 18.4.5.4, trades. Set-up: France's Round 1 turn; the fixture gives LORD LIVERPOOL
-- (British) the French letter D and KOLOWRAT the Russian letter C (placeholders). Expected:
-- France offers Britain a trade and lays LORD LIVERPOOL, its lowest British C/D card. Then
-- Russia offers France a trade: France accepts with KOLOWRAT (a card with a green C), and
-- with option lutzen_france.trade_answer=russian-card refuses (Kolowrat is no Russian card).
test("18.4.5.4 France's trades", { instructions = 1200000000, seconds = 60 }, function(t)
  local g = t:game { scenario = "lutzen-bautzen", overlay = FIXTURE }
  play.to(g, reached("round_turn", "FR"))
  t:ok(string.find(g:prompt().text, "Round 1", 1, true), g:prompt().text)
  set_hand(g, "FR", with(EIGHT, { "liverpool" }))
  local choice, reasons = g:bot_choice("lutzen_france", "FR")
  t:eq(choice, "trade BR", table.concat(reasons, " "))
  g:act("trade", "BR")
  choice, reasons = g:bot_choice("lutzen_france", "FR")
  t:eq(choice, "offer liverpool", table.concat(reasons, " "))

  local function answer(option)
    local game = t:game { scenario = "lutzen-bautzen", overlay = FIXTURE, options = { ["lutzen_france.trade_answer"] = option } }
    play.to(game, reached("round_turn", "RU"))
    set_hand(game, "FR", { "napoleon", "davout", "fouche", "kolowrat" })
    game:act("trade", "FR")
    local c, r = game:bot_choice("lutzen_france", "FR")
    return c, table.concat(r, " ")
  end
  choice, reasons = answer("green-letter")
  t:eq(choice, "give kolowrat", reasons)
  choice, reasons = answer("russian-card")
  t:eq(choice, "refuse", reasons)
end)

-- Rule: 18.4.5.4, Round 1 (L1277): France trades the lowest of its Russian and British C or
-- D cards (blue letter), D before C, whichever power's it is. Set-up: France's Round 1
-- turn; the fixture gives VON SCHARNHORST (Russian) the French letter C and LORD LIVERPOOL
-- (British) D. Expected: France offers the trade to Britain, and lays LORD LIVERPOOL (an
-- earlier reading offered Russia's card whenever France held one).
test("18.4.5.4 France's Round 1 trade is its lowest Russian or British card", { instructions = 1200000000, seconds = 60 },
  function(t)
    local g = t:game { scenario = "lutzen-bautzen", overlay = FIXTURE }
    play.to(g, reached("round_turn", "FR"))
    t:ok(string.find(g:prompt().text, "Round 1", 1, true), g:prompt().text)
    set_hand(g, "FR", with(EIGHT, { "liverpool", "scharnhorst" }))
    local choice, reasons = g:bot_choice("lutzen_france", "FR")
    t:eq(choice, "trade BR", table.concat(reasons, " "))
    g:act("trade", "BR")
    choice, reasons = g:bot_choice("lutzen_france", "FR")
    t:eq(choice, "offer liverpool", table.concat(reasons, " "))
  end)

-- Rule: 18.4.5.6, Round 6 (L1294): France takes an issue off the Russian track when that
-- ties or gives it the lead in issues; already tied, it takes the lead. Set-up: France's
-- Round 6 turn; by hand, one issue on France's track (French Recruitment, France 1) and one
-- on Russia's (Russian Recruitment, Russia 1), every other issue off both tracks. Expected:
-- France negotiates Russian Recruitment off the Russian track (an earlier reading did so
-- only when France was behind).
test("18.4.5.6 France takes the lead off the Russian track in Round 6", { instructions = 1500000000, seconds = 80 },
  function(t)
    local g = t:game { scenario = "lutzen-bautzen", overlay = FIXTURE }
    play.to(g, function(game)
      local p = game:prompt()
      return p ~= nil and game:state() == "round_turn" and p.seat == "FR" and string.find(p.text, "Round 6", 1, true) ~= nil
    end)
    for piece, space in pairs(g:json().tracks.diplomacy) do
      if string.find(space, "^FR%-") or string.find(space, "^RU%-") then
        g:place(piece, "diplomacy", "display")
      end
    end
    g:place("issue.recruit_fr", "diplomacy", "FR-1")
    g:place("issue.recruit_ru", "diplomacy", "RU-1")
    set_hand(g, "FR", with(EIGHT))
    local choice, reasons = g:bot_choice("lutzen_france", "FR")
    local why = table.concat(reasons, " ")
    t:ok(string.find(choice, "^negotiate "), choice .. ": " .. why)
    t:ok(string.find(why, "18.4.5.6, Round 6: Russian Recruitment off the Russian track", 1, true), why)
  end)

-- Rule: 18.4.5.6 and 18.4.5.7, card play: the non-military card that takes the highest
-- French priority issue furthest onto the French track. Set-up: France's Round 1 turn;
-- French Recruitment (priority 1) put on the Negotiation Table by hand; a hand of
-- NAPOLÉON, DAVOUT 5, FOUCHÉ 3, KOLOWRAT 2 and 5 more worth 3 or 4. Expected: DAVOUT,
-- on French Recruitment (Table to France 5); never NAPOLÉON.
test("18.4.5.6 France plays for its highest priority issue", { instructions = 800000000, seconds = 40 }, function(t)
  local g = t:game { scenario = "lutzen-bautzen", overlay = FIXTURE }
  play.to(g, reached("round_turn", "FR"))
  set_hand(g, "FR", with(EIGHT))
  g:place("issue.recruit_fr", "diplomacy", "table")
  local choice, reasons = g:bot_choice("lutzen_france", "FR")
  t:eq(choice, "negotiate davout", table.concat(reasons, " "))
  t:ok(string.find(table.concat(reasons, " "), "priority 1 (French Recruitment) reaches France 5", 1, true),
    table.concat(reasons, " "))
  g:act("negotiate", "davout")
  t:eq(g:bot_choice("lutzen_france", "FR"), "on issue.recruit_fr")
end)

-- Rule: 18.4.5.8, the debate table (read "at least": France debates French Recruitment in
-- Round 1 with 6 non-military cards or more). Set-up: Russia's Round 1 turn; French
-- Recruitment on the Table; Russia negotiates it with Unidentified card 8 (3: to Russia 3);
-- France holds NAPOLÉON and 7, then 4, non-military cards. Expected: with 7 France debates
-- with DAVOUT (Russia 3 - 5: France 2); with 4 it lets the play stand; with the printed
-- "at most" (option lutzen_france.debate_table=as-printed) the other way round.
test("18.4.5.8 France debates by the table", { instructions = 1200000000, seconds = 60 }, function(t)
  local function debate_choice(option, hand)
    local g = t:game { scenario = "lutzen-bautzen", overlay = FIXTURE, options = { ["lutzen_france.debate_table"] = option } }
    play.to(g, reached("round_turn", "RU"))
    t:ok(string.find(g:prompt().text, "Round 1", 1, true), g:prompt().text)
    g:place("issue.recruit_fr", "diplomacy", "table")
    set_hand(g, "RU", { "alexander", "unidentified_8" })
    set_hand(g, "FR", with(hand))
    g:act("negotiate", "unidentified_8")
    g:act("on", "issue.recruit_fr")
    t:eq({ g:space_of("issue.recruit_fr") }, { "diplomacy", "RU-3" })
    local choice, reasons = g:bot_choice("lutzen_france", "FR")
    return choice, table.concat(reasons, " ")
  end
  local choice, why = debate_choice("at-least", SEVEN)
  t:eq(choice, "debate davout", why)
  t:ok(string.find(why, "7 non-military cards >= 6", 1, true) and string.find(why, "to France 2", 1, true), why)
  choice, why = debate_choice("at-least", FOUR)
  t:eq(choice, "pass", why)
  choice, why = debate_choice("as-printed", FOUR)
  t:eq(choice, "debate davout", why)
end)

-- Rule: 18.4.7.7, military cards: every card to a front where it may be used, NAPOLÉON to
-- the Grande Armée's battle with BERTHIER (the module's reading of "synergy"), the others
-- equalised over the fronts still to fight. Set-up: the first battle, Front A (the
-- Grande Armée; Front C fights next, with the British Military Operation); France holds
-- NAPOLÉON, BERTHIER, EUGÈNE and RIVER CROSSING (Fronts A-F), SHERBROOKE (War of 1812 only).
-- Expected: on Front A, BERTHIER and NAPOLÉON; EUGÈNE and RIVER CROSSING kept for Front C.
test("18.4.7.7 France assigns its military cards to the fronts", { instructions = 1200000000, seconds = 60 }, function(t)
  local g = t:game { scenario = "lutzen-bautzen", overlay = FIXTURE }
  play.to(g, reached("battle_cards", "FR"))
  t:ok(string.find(g:prompt().text, "Front A", 1, true), g:prompt().text)
  set_hand(g, "FR", { "napoleon", "berthier", "eugene", "river_crossing", "sherbrooke", "davout" })
  local laid = {}
  for _ = 1, 6 do
    local choice, reasons = g:bot_choice("lutzen_france", "FR")
    if choice == "done" then
      break
    end
    local card = string.match(choice, "card: ([%w_]+)")
    t:ok(card ~= nil, choice .. " " .. table.concat(reasons, " "))
    laid[#laid + 1] = card
    g:act("lay", { card = card })
  end
  t:eq(laid, { "berthier", "napoleon" })
end)
