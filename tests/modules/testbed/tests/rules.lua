-- Testbed self-tests: each plays a few inputs and checks what the rules did.

local util = include("@lib/util.lua")

--- Tries the action `name` (with `arg` and `dice`, as `g:try`) and checks that it is refused
--- with a reason that holds `text`.
local function refused(t, g, text, name, arg, dice)
  local ok, err = g:try(name, arg, dice)
  t:eq(ok, false)
  t:ok(err:find(text, 1, true), err)
end

-- Rule: setup deals two cards to each seat and Alpha begins.
-- Set-up: basic scenario, seed 1. Expected: hands of 2, deck of 1, Alpha to play.
test("setup deals two cards each and Alpha begins", function(t)
  local g = t:game { scenario = "basic", seed = 1 }
  t:eq(#g:zone("hand.A"), 2, "Alpha's hand")
  t:eq(#g:zone("hand.B"), 2, "Beta's hand")
  t:eq(#g:zone("deck"), 1, "deck")
  t:eq(g:prompt().seat, "A")
  t:eq(g:state(), "turn")
  t:eq(g:turn(), 1)
end)

-- Rule: playing a card scores its value, discards it, draws one and passes the turn.
-- Set-up: basic, seed 1. Expected: Alpha's score equals the card's value; Beta to play.
test("playing a card scores its value and passes the turn", function(t)
  local g = t:game { scenario = "basic", seed = 1 }
  local card = g:zone("hand.A")[1]
  local values = { one = 1, two = 2, three = 3, four = 4, five = 5 }
  g:act("play", card)
  t:eq(g:counter("vp.A"), values[card], "Alpha's score")
  t:eq(g:zone("discard")[1], card, "top of the discard")
  t:eq(#g:zone("hand.A"), 2, "Alpha drew a replacement")
  t:eq(g:prompt().seat, "B")
  t:eq(g:turn(), 2)
  local _, space = g:space_of("marker.A")
  t:eq(space, tostring(values[card]), "Alpha's marker on the score track")
  -- The line is written with ctx:log's format arguments.
  local names = { one = "One", two = "Two", three = "Three", four = "Four", five = "Five" }
  local played = string.format("Alpha plays %s (card 1 of Alpha's hand) for %d VP.", names[card], values[card])
  local found = false
  for _, line in ipairs(g:log()) do
    found = found or line == played
  end
  t:eq(found, true, "the log says: " .. played)
end)

-- Rule: an action that is not listed is refused and changes nothing.
test("an illegal action is refused", function(t)
  local g = t:game { scenario = "basic", seed = 1 }
  refused(t, g, "not a legal action", "play", "mystery")
  t:eq(g:inputs(), 0)
  t:fails(function() g:act("bid", 4) end, "not a legal action")
end)

-- Rule: a bid records the highest bid so far on its counter.
test("bids keep the highest", function(t)
  local g = t:game { scenario = "basic", seed = 1 }
  g:act("bid", 2)
  g:act("bid", 1)
  t:eq(g:counter("bid"), 2)
end)

-- Rule: a recruit roll of 4 or more moves an infantry unit from the pool to Alpha's army;
-- a 1 adds a cavalry unit to the pool. Dice are supplied, as from a physical table.
test("recruit rolls move units", function(t)
  local g = t:game { scenario = "basic", seed = 1 }
  g:act("recruit", nil, { 5 })
  t:eq(g:units("army.A", "inf"), 1)
  t:eq(g:units("pool", "inf"), 2)
  g:act("recruit", nil, { 1 })
  t:eq(g:units("pool", "cav"), 2)
  local log = g:log()
  -- Without a kind, ctx:units counts every unit in the box.
  t:eq(log[#log], "Pool: 2 infantry, 2 cavalry (4 units).")
end)

-- Rule: with physical dice, a roll waits for the table's die.
test("physical dice are asked for", function(t)
  local g = t:game { scenario = "basic", seed = 1, dice = "physical" }
  refused(t, g, "roll a 6-sided die", "recruit")
  g:act("recruit", nil, { 5 })
  t:eq(g:units("army.A", "inf"), 1)
end)

-- Rule: a roll of 6 reads the recruit table's 6 row, which is not entered: it is asked for.
test("an unknown table entry is asked for", function(t)
  local g = t:game { scenario = "basic", seed = 1 }
  refused(t, g, "table 'recruit_bonus': entry '6' is not entered yet", "recruit", nil, { 6 })
end)

-- Rule: Alpha's block marches along links; East scores its VP, which is not entered.
test("marching east asks for the unknown VP of East", function(t)
  local g = t:game { scenario = "basic", seed = 1 }
  t:eq(g:legal()[#g:legal() - 3], "march south")
  g:act("march", "south")
  local _, space = g:space_of("block.A")
  t:eq(space, "south")
  g:act("pass")
  refused(t, g, "space 'land/east': property 'vp'", "march", "east")
end)

-- Rule: playing a card whose value is not entered asks for it instead of guessing.
test("an unknown card value is asked for", function(t)
  local g = t:game { scenario = "mystery", seed = 3 }
  refused(t, g, "card 'mystery': field 'value' is not entered yet", "play", "mystery")
  t:eq(g:inputs(), 0, "nothing was recorded")
end)

-- Rule: a detour is pushed over the turn, asks yes/no, and the turn resumes after it.
test("a detour pushes a state and pops back", function(t)
  local g = t:game { scenario = "basic", seed = 1 }
  g:act("detour")
  t:eq(g:state(), "detour")
  t:eq(g:prompt().text, "Set the mystery card aside? (human)")
  g:act("yes", true)
  t:eq(g:state(), "turn")
  t:eq(g:prompt().seat, "A", "Alpha's turn resumes")
  t:eq(g:space_of("marker.B"), nil, "Beta's marker was taken off")
  g:act("detour")
  g:act("no", false)
  local place, space = g:space_of("marker.B")
  t:eq({ place, space }, { "score", "0" })
  local log = g:log()
  t:eq(log[#log], "Detour ends for A.")
end)

-- Rule: two passes in a row end the game; the higher score wins.
test("two passes end the game", function(t)
  local g = t:game { scenario = "basic", seed = 1 }
  local card = g:zone("hand.A")[1]
  g:act("play", card)
  g:act("pass")
  g:act("pass")
  t:eq(g:prompt(), nil, "no decision is left")
  local result = g:result()
  t:eq(result.winners, { "A" })
  t:eq(result.scores.B, 0)
end)

-- Rule: the simple bot plays its highest card and explains why; bots play to the end.
test("the simple bot plays its highest card", function(t)
  local g = t:game { scenario = "basic", seed = 1, seats = { A = "bot", B = "bot" } }
  local hand = g:zone("hand.A")
  local values = { one = 1, two = 2, three = 3, four = 4, five = 5 }
  local best = values[hand[1]] > values[hand[2]] and hand[1] or hand[2]
  local choice, reasons = g:bot()
  t:eq(choice, "play " .. best)
  t:eq(reasons[1], "1. Is there a card with a known value to play? Yes.")
  g:run_bots()
  t:ok(g:result() ~= nil, "the game ended")
end)

-- Rule: undo takes back the last input and redo plays it again.
test("undo and redo", function(t)
  local g = t:game { scenario = "basic", seed = 1 }
  g:act("bid", 3)
  t:eq(g:counter("bid"), 3)
  t:eq(g:undo(), true)
  t:eq(g:counter("bid"), 0)
  t:eq(g:redo(), true)
  t:eq(g:counter("bid"), 3)
end)

-- Rule: the seat view hides the other hand and the deck, and adds the module's view data.
test("a seat sees only its own hand", function(t)
  local g = t:game { scenario = "basic", seed = 1 }
  local json = g:json("A")
  t:eq(json.zones["hand.B"].cards, { "?", "?" })
  t:eq(json.zones["hand.A"].cards, g:zone("hand.A"))
  t:eq(json.view, { passes = 0, seat = "A", other_hand = { "?", "?" } })
end)

-- Rule: under fog of war a seat sees only what it may of the land and the pool; Alpha can
-- show its army to Beta and hide it again.
-- Set-up: scout, seed 1. Expected: Beta sees no army and an empty pool, then Alpha's army.
test("fog of war hides what a seat may not see", function(t)
  local g = t:game { scenario = "scout", seed = 1 }
  local beta = g:json("B")
  t:eq(beta.tracks.land, {})
  t:eq(beta.boxes.pool, {})
  t:eq(beta.fog.places.land, "each seat sees its own")
  t:eq(g:json("A").tracks.land, { ["block.A"] = "north" })
  t:eq(g:json("A").boxes.pool, { inf = 3, cav = 1 })
  g:act("scout")
  t:eq(g:json("B").tracks.land, { ["block.A"] = "north" })
  t:eq(g:prompt().seat, "A", "scouting does not end the turn")
  g:act("scout")
  t:eq(g:json("B").tracks.land, {})
end)

-- Rule: moves by hand are recorded like any input.
test("moves by hand are inputs", function(t)
  local g = t:game { scenario = "basic", seed = 1 }
  g:set_counter("vp.B", 4)
  g:place("marker.B", "score", "4")
  g:add_units("pool", "cav", 2)
  g:move_card("mystery", "discard")
  t:eq(g:counter("vp.B"), 4)
  t:eq(g:units("pool", "cav"), 3)
  t:eq(g:zone("discard"), { "mystery" })
  t:eq(g:inputs(), 4)
end)

-- A council from Alpha's first turn, seed 1: the hands are dealt from the shuffled deck.
local function council(t)
  local g = t:game { scenario = "basic", seed = 1 }
  g:act("council")
  return g
end

-- Rule: a council is a phase (automatic) that calls rounds (automatic), each calling a
-- wager: both seats are asked at once, in secret.
-- Set-up: basic, seed 1; Alpha calls a council. Expected: the wager waits for both seats.
test("a council calls a round, which asks both seats to wager at once", function(t)
  local g = council(t)
  local p = g:prompt()
  t:eq(p.state, "wager")
  t:eq(p.decision, "simultaneous")
  t:eq(#p.asks, 2, "both seats are asked")
  t:eq({ p.asks[1].seat, p.asks[2].seat }, { "A", "B" })
  t:eq(#p.answered, 0)
  local flow = {}
  for _, frame in ipairs(g:json().flow) do
    flow[#flow + 1] = frame.state
  end
  t:eq(flow, { "turn", "council", "round", "wager" }, "turn -> council -> round -> wager")
end)

-- Rule: a secret answer stays hidden from the other seat in the state JSON and the log
-- until the rules reveal it; the seat that answered cannot answer twice.
-- Set-up: Alpha calls a council and wagers its first card. Expected: Beta sees only that
-- Alpha has answered.
test("a committed wager is hidden from the other seat", function(t)
  local g = council(t)
  local card = g:zone("hand.A")[1]
  g:act_as("A", "commit", card)
  local p = g:prompt()
  t:eq(p.answered, { "A" })
  t:eq(#p.asks, 1, "only Beta is still asked")
  t:eq(p.asks[1].seat, "B")
  t:eq(p.text, "Round 1: wager a card, face down (one seat has chosen)")
  local as_b = g:json("B")
  local top = as_b.flow[#as_b.flow]
  t:eq(top.answers, { A = "answered" }, "Beta sees that Alpha answered, not what")
  local entry = as_b.log[#as_b.log]
  t:eq(entry.input, "A: a secret answer")
  t:eq(g:json().flow[4].answers.A, "commit " .. card, "the omniscient view shows it")
  t:eq(g:json("A").log[#as_b.log].input, "A: commit " .. card, "Alpha sees its own answer")
  local ok, err = g:try("commit", card)
  t:eq(ok, false)
  t:ok(err:find("several seats decide at once", 1, true) or err:find("not a legal", 1, true), err)
  t:fails(function() g:act_as("A", "commit", g:zone("hand.A")[2]) end, "A has answered already")
end)

-- A council (basic, seed 1) with the hands arranged by hand (after `arrange`, if given) so
-- that Alpha wagers Five and Beta Two, both wagered.
local function wagered(t, arrange)
  local g = t:game { scenario = "basic", seed = 1 }
  if arrange then
    arrange(g)
  end
  g:move_card("five", "hand.A")
  g:move_card("two", "hand.B")
  g:act("council")
  g:act_as("B", "commit", "two")
  g:act_as("A", "commit", "five")
  return g
end

-- Rule: when both have wagered, the cards are revealed, each wager is an explained sum (the
-- card's value, the seat's private favour and the Five's effect), and the higher wins the
-- difference; then the loser is asked first whether to object.
-- Set-up: basic, seed 1; the hands are arranged by hand so that Alpha wagers Five and Beta
-- Two. Expected: "5 Five + 1 favour + 1 card effect = 7" against "2 Two + 2 favour = 4".
test("the wager reveals both cards and explains each sum", function(t)
  local g = wagered(t)
  local log = g:log()
  local text = table.concat(log, "\n")
  t:ok(text:find("Alpha's wager: 5 Five + 1 favour + 1 card effect = 7", 1, true), text)
  t:ok(text:find("Beta's wager: 2 Two + 2 favour = 4", 1, true), text)
  t:ok(text:find("Alpha wins the wager by 3.", 1, true), text)
  local p = g:prompt()
  t:eq(p.state, "objection")
  t:eq(p.decision, "window")
  t:eq(p.seat, "B", "the loser is asked first")
  t:eq(#p.asks, 1, "one seat at a time")
  t:eq(g:legal(), { "object", "pass" })
end)

-- Rule: in the objection window each seat may object or pass, in turn; when all pass, the
-- round stands. After two rounds the council returns the points won, and the turn scores
-- them (an explained sum) and passes to Beta.
-- Set-up: as above; both pass in both rounds. Expected: Alpha scores 3 for round 1.
test("a council scores the points its rounds return", function(t)
  local g = wagered(t)
  g:act("pass")
  t:eq(g:prompt().seat, "A", "then the winner")
  g:act("pass")
  t:eq(g:state(), "wager", "round 2")
  local a, b = g:zone("hand.A"), g:zone("hand.B")
  g:act_as("A", "commit", a[1])
  g:act_as("B", "commit", b[1])
  while g:state() == "objection" do
    g:act("pass")
  end
  t:eq(g:state(), "turn")
  t:eq(g:prompt().seat, "B", "the turn passes")
  t:ok(g:counter("vp.A") >= 3, "Alpha scored its 3 points of round 1")
  local text = table.concat(g:log(), "\n")
  t:ok(text:find("Alpha's score: 0 before + ", 1, true), text)
end)

-- Rule: an objection voids the round and costs the objector a point.
-- Set-up: as above; Beta objects. Expected: the round is void; Beta's VP stay at 0 (bounded).
test("an objection voids the round", function(t)
  local g = wagered(t, function(g) g:set_counter("vp.B", 2) end)
  g:act("object")
  t:eq(g:counter("vp.B"), 1)
  local text = table.concat(g:log(), "\n")
  t:ok(text:find("Round 1 is void: Beta objected.", 1, true), text)
  t:eq(g:state(), "wager", "round 2 begins")
end)

-- Rule: private state is seen by its seat only; a private log line likewise.
-- Set-up: basic, seed 1. Expected: Alpha's favour is 1, Beta's 2; each is told only its own.
test("private state and private log lines reach only their seat", function(t)
  local g = t:game { scenario = "basic", seed = 1 }
  t:eq(g:private("A"), { favour = 1 })
  t:eq(g:json("A").private, { A = { favour = 1 } })
  t:eq(g:json("B").private, { B = { favour = 2 } })
  t:eq(g:json().private, { A = { favour = 1 }, B = { favour = 2 } })
  local function told(seat)
    return util.filter(g:log(seat), function(line)
      return line:find("favour", 1, true) ~= nil
    end)
  end
  t:eq(told("A"), { "Your favour in wagers is 1." })
  t:eq(told("B"), { "Your favour in wagers is 2." })
end)

-- Rule: a bot reads its own private state but not another seat's: trying is an error
-- that names the file and line.
-- Set-up: a council; the spy bot answers for Alpha. Expected: an error at rules/main.lua.
test("a bot may not read another seat's private state", function(t)
  local g = council(t)
  local choice, reasons = g:bot_choice("simple", "A")
  t:eq(reasons[1], "1. My favour adds 1 to whatever I wager.")
  t:fails(function() g:bot_choice("spy", "A") end, "rules/main.lua:")
  t:fails(function() g:bot_choice("spy", "A") end, "may not see seat B's private state")
end)

-- Rule: bots answer a simultaneous decision one seat at a time, and draw from their own
-- seeded random stream, shown in their reasons; the same position gives the same draw.
-- Set-up: both seats bots; Alpha calls a council by hand. Expected: the objection die is in
-- the reasons, and a preview draws what the bot then draws.
test("bots wager in secret and roll their own fate die", function(t)
  local g = t:game { scenario = "basic", seed = 1, seats = { A = "human", B = "bot" } }
  g:act("council")
  local choice, reasons, seat = g:bot()
  t:eq(seat, "B", "the bot answers for its seat")
  t:eq(g:prompt().answered, { "B" })
  g:act_as("A", "commit", g:zone("hand.A")[1])
  while g:state() == "objection" and g:prompt().seat == "A" do
    g:act("pass")
  end
  if g:state() == "objection" then
    local preview, preview_reasons = g:bot_choice()
    local played, played_reasons = g:bot()
    t:eq(played, preview)
    t:eq(played_reasons, preview_reasons)
    t:ok(played_reasons[#played_reasons]:find("at random for the objection die", 1, true), played_reasons[#played_reasons])
  end
end)

-- Rule: a module test may start from a position: a recorded game, cut after some inputs,
-- then more answers.
-- Set-up: the council recording, after its first input (Alpha calls the council), then
-- Alpha wagers. Expected: the wager waits for Beta only.
test("a test starts from a recorded position", function(t)
  local g = t:game { from = "tests/replays/council.ron", after = 1, inputs = { "A: commit five" } }
  t:eq(g:inputs(), 2)
  t:eq(g:state(), "wager")
  t:eq(g:prompt().answered, { "A" })
  t:fails(function() t:game { from = "../outside.ron" } end, "is outside the module folder")
end)

-- Rule (library): an explained sum keeps its terms, says each in words, and shows a limit
-- when one applies.
-- Set-up: none. Expected: the issue's examples, word for word.
test("explained sums say how a value was built", function(t)
  local modifiers = include("@lib/modifiers.lua")
  local drm = modifiers.sum("DRM")
  drm:add(5, "DAVOUT"):add(-2, "against the Allies"):add(1, "debate")
  t:eq(drm:total(), 4)
  t:eq(drm:explain(), "5 DAVOUT − 2 against the Allies + 1 debate = 4")
  t:eq(drm:reason(), "DRM: 5 DAVOUT − 2 against the Allies + 1 debate = 4")
  local strength = modifiers.sum()
  strength:add(22, "units"):add(3, "supports"):add(3, "HQ"):add(8, "cards")
  t:eq(strength:explain(), "22 units + 3 supports + 3 HQ + 8 cards = 36")
  t:eq(modifiers.sum():explain(), "nothing = 0")
  local capped = modifiers.sum():add(4, "cards"):add(3, "leaders"):clamp(nil, 5)
  t:eq(capped:total(), 5)
  t:eq(capped:explain(), "4 cards + 3 leaders = 7, at most 5")
  t:eq(modifiers.sum():add(1.5, "halves"):explain(), "1.5 halves = 1.5")
  t:eq(#drm:terms(), 3)
  t:fails(function() drm:add("two", "x") end, "must be a number")
end)

-- An action that gives something up carries what the person agrees to first.
test("conceding asks the person to agree first, and ends the game", function(t)
  local g = t:game { scenario = "basic", seed = 1 }
  local concede
  for _, action in ipairs(g:prompt().actions) do
    if action.name == "concede" then
      concede = action
    end
  end
  t:eq(concede.confirm, "The other seat wins the game.")
  g:act("concede")
  t:eq(g:result().winners, { "B" })
end)
