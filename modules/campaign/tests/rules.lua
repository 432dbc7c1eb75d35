-- Napoleonic Wars Campaign: the text's worked numbers and the module's readings of its
-- contradictions (RULES-GAPS.md). Every printed cell of the four battle tables is checked
-- against the page by tests/tests/campaign.rs; these play the rules that read them.

local battle = include("rules/battle.lua")
local bank = include("rules/bank.lua")
local calendar = include("rules/calendar.lua")
local umpire = include("tests/lib/umpire.lua")

local FIXTURE = "tests/owner-fixture.ron"

-- Rule 19.4 with the field table: 1:1 odds and a roll of 2 read 25/20R (the text's own
-- example of how a cell reads). Set-up: turn 1 to its battles; France attacks Austria at
-- 30 against 30, no advantage, with 20 infantry each; the dice 1 and 1.
-- Expected: France loses 25% (5 infantry), Austria 20% (4) and retreats.
test("19.4 field battle 1:1 roll 2 reads 25/20R", function(t)
  local g = umpire.to_battles(t)
  local told = umpire.battle(g, { kind = "field", attacker = "FR", defender = "AU", cv = { 30, 30 },
    arms = { { 20, 0, 0 }, { 20, 0, 0 } } }, { 1, 1 })
  t:ok(told:find("odds 1:1, column 1:1, roll 2 (2 modified): 25/20R", 1, true), told)
  t:ok(told:find("France loses 25%: 5 infantry. Austria loses 20%: 4 infantry; retreats.", 1, true), told)
end)

-- Rule 19.4, meeting engagement: "a roll of a 7 at 1:1 odds both sides take 20% losses and
-- fall back". Set-up: a meeting engagement at 12 against 12, the dice 3 and 4.
-- Expected: 20R/20R, both lose 20% and both retreat.
test("19.4 meeting engagement 1:1 roll 7 reads 20R/20R, both fall back", function(t)
  local g = umpire.to_battles(t)
  local told = umpire.battle(g, { kind = "meeting", attacker = "RU", defender = "OT", cv = { 12, 12 },
    arms = { { 10, 0, 0 }, { 10, 0, 0 } } }, { 3, 4 })
  t:ok(told:find("roll 7 (7 modified): 20R/20R", 1, true), told)
  t:ok(told:find("Russia loses 20%: 2 infantry; retreats. Ottoman Empire loses 20%: 2 infantry; retreats.", 1, true), told)
end)

-- Rule 19.8: losses by arm, half a unit rounded up and less rounded down: 10 infantry,
-- 5 cavalry and 2 artillery at 10% lose 1, 1 (0.5 up) and 0 (0.2 down); facing a single
-- infantry battalion the same army loses 1 at most.
test("19.8 losses by arm 10/5/2 at 10% are 1/1/0, capped by the opposing force", function(t)
  local lost, total = battle.losses({ infantry = 10, cavalry = 5, artillery = 2 }, battle.LAND_ARMS, 10)
  t:eq(lost, { infantry = 1, cavalry = 1, artillery = 0 })
  t:eq(total, 2)
  lost, total = battle.losses({ infantry = 10, cavalry = 5, artillery = 2 }, battle.LAND_ARMS, 10, 1)
  t:eq(lost, { infantry = 1, cavalry = 0, artillery = 0 }, "the cap takes infantry first (reading)")
  t:eq(total, 1)
end)

-- Rule 19.5(a) pursuit: the side that holds the field adds 1% to the loser's losses for
-- every ten cavalry regiments. Set-up: a field battle at 2:1 (20 against 10) read on a
-- roll of 2 (20/25R), the attacker with 25 cavalry. Expected: the defender loses 25% + 2%.
test("19.5a pursuit adds 1% per ten cavalry of the side that holds the field", function(t)
  local g = umpire.to_battles(t)
  local told = umpire.battle(g, { kind = "field", attacker = "GB", defender = "FR", cv = { 20, 10 },
    arms = { { 10, 25, 0 }, { 100, 0, 0 } } }, { 1, 1 })
  t:ok(told:find("column 2:1, roll 2 (2 modified): 20/25R", 1, true), told)
  t:ok(told:find("France loses 25% (+2% pursuit): 27 infantry; retreats.", 1, true), told)
end)

-- Rules 19.3 and 19.4: the battle advantage shifts one column toward its side; a general's
-- +1 counts in its side's favour (the low rolls are the attacker's). Set-up: 30 against 30
-- (1:1), the attacker's advantage, the attacker's general +1, the dice 4 and 4.
-- Expected: column 2:1, roll 8 modified to 7: 25/20R.
test("19.3 the battle advantage shifts a column and the general's +1 the roll", function(t)
  local g = umpire.to_battles(t)
  local told = umpire.battle(g, { kind = "field", attacker = "FR", defender = "PR", cv = { 30, 30 },
    advantage = "attacker", drm = 1, arms = { { 10, 0, 0 }, { 10, 0, 0 } } }, { 4, 4 })
  t:ok(told:find("odds 1:1, column 2:1, roll 8 (7 modified): 25/20R", 1, true), told)
end)

-- Reading (RULES-GAPS.md): odds round in the defender's favour, to the highest column they
-- reach; odds beyond the table read its last column, and a cell the text leaves out of a
-- sparse last column is read from the column to its left.
test("reading: odds columns and the sparse last column", function(t)
  t:eq(battle.column("field", 29, 10), 4, "2.9:1 is the 2:1 column")
  t:eq(battle.column("field", 1, 5), 1, "1:5 reads 1:3, the lowest")
  t:eq(battle.column("field", 130, 10), 9, "13:1 reads 12:1")
  t:eq(battle.column("siege", 1, 2), 1, "a siege below 1:1 reads 1:1")
  t:eq(battle.shifted("field", 9, "attacker"), 9, "no column beyond the last")
  local g = umpire.to_battles(t)
  local told = umpire.battle(g, { kind = "field", attacker = "FR", defender = "SW", cv = { 120, 10 },
    arms = { { 10, 0, 0 }, { 10, 0, 0 } } }, { 2, 1 })
  t:ok(told:find("odds 12:1, column 6:1, roll 3 (3 modified): 4/40R", 1, true), told)
  told = umpire.battle(g, { kind = "field", attacker = "FR", defender = "SW", cv = { 120, 10 },
    arms = { { 10, 0, 0 }, { 10, 0, 0 } } }, { 1, 1 })
  t:ok(told:find("odds 12:1, column 12:1, roll 2 (2 modified): 0/100", 1, true), told)
end)

-- Rule 19.9: a raid on a city of a province of 3 cities producing 7 RP costs 2 RP (rounded
-- down), 3 if the city is a Victory City (rounded up); the raided nation reads it and the
-- next turn's income is less by it.
test("19.9 a raid on a 3-city 7-RP province costs 2 RP, a Victory City 3", function(t)
  t:eq(bank.raid_loss(7, 3, false), 2)
  t:eq(bank.raid_loss(7, 3, true), 3)
  local g = umpire.to_battles(t)
  g:act("raid")
  for _, v in ipairs({ "FR", 7, 3, true }) do
    g:act("set", v)
  end
  t:eq(g:private("FR").raided, 3)
  t:ok(umpire.told(g, "FR", "A raid costs you 3 RP of next turn's income."), "France is told")
  t:eq(umpire.told(g, "GB", "A raid costs you"), false, "Britain is not")
end)

-- Rules 6 and 22: a Victory Point for each Victory City beyond the starting number; a tie
-- goes to the smaller starting number. The text's example: France starts with 13 and ends
-- with 16, Spain starts with 5 and ends with 8: both score 3 and Spain wins.
test("6 victory: France 13 to 16 and Spain 5 to 8 tie on 3, and Spain wins", function(t)
  local g = umpire.to_battles(t)
  umpire.form(g, "held", { "FR", 16 })
  umpire.form(g, "held", { "SP", 8 })
  g:act("end_game")
  local result = g:result()
  t:eq(result.winners, { "SP" })
  t:eq(result.scores.FR, 3)
  t:eq(result.scores.SP, 3)
  t:eq(result.scores.AU, 0, "a nation that holds what it started with scores nothing")
end)

-- Reading (RULES-GAPS.md): France's starting Victory Cities are 13 (section 6) by default,
-- 15 (section 22) with victory.france_start=15. Section 22's own example: 15 to 20 is 5.
test("reading: France starts with 13 Victory Cities, or 15", function(t)
  local g = umpire.to_battles(t, { ["victory.france_start"] = "15" })
  umpire.form(g, "held", { "FR", 20 })
  g:act("end_game")
  t:eq(g:result().scores.FR, 5)
  g = umpire.to_battles(t)
  umpire.form(g, "held", { "FR", 20 })
  g:act("end_game")
  t:eq(g:result().scores.FR, 7)
end)

-- Rule 20.1: a nation forced to submit scores its victor a point (22.1), and under the
-- reparations terms pays its table's dollars each turn for a year (four turns).
test("20.1 a submission scores a point and reparations are paid each turn", function(t)
  local g = umpire.to_battles(t)
  umpire.form(g, "adjust", { "AU", "cash", 1000 })
  umpire.form(g, "submission", { "AU", "FR", "reparations" })
  umpire.finish_turn(g)
  g:act("published")
  t:eq(g:private("AU").bank.cash, 670, "Austria pays $330")
  t:eq(g:private("FR").bank.cash, 330)
  t:eq(g:vars().peace.AU.turns, 3)
  g:act_as("FR", "received")
  t:eq(g:vars().submissions.FR, 1)
end)

-- Rule 19.7: a replacement general's ratings by one die. Set-up: a die of 6.
-- Expected: rank B, battle 4, command 4, CV +10 and a +1 battle modifier, told to its nation.
test("19.7 a replacement general on a 6 is rank B, 4/4, +10, +1 battle", function(t)
  local g = umpire.to_battles(t)
  g:set_dice("physical")
  g:act("replacement")
  g:act("set", "RU", { 6 })
  t:ok(umpire.told(g, "RU", "Your new general: rank B, battle 4, command 4, CV +10, +1 battle modifier."), "Russia is told")
end)

-- Rules 4 and 8: the turn's steps, the calendar and the income. Turn 1 is Fall 1805 and
-- Spain's gold comes in the Fall (6d6 with its 2 trade dice: 8 dice, 8 to 48 RP); unspent
-- RP and AP are lost at the turn's end; turn 2 is Winter 1806.
test("4 the calendar, the income and the turn's nine steps", function(t)
  t:eq({ calendar.of(0) }, { "Summer", 1805 })
  t:eq({ calendar.of(1) }, { "Fall", 1805 })
  t:eq({ calendar.of(2) }, { "Winter", 1806 })
  t:eq({ calendar.of(35) }, { "Spring", 1814 })
  t:eq({ calendar.of(34) }, { "Winter", 1814 })
  local g = t:game { scenario = "fall-1805", seed = 3, overlay = FIXTURE }
  g:act("published")
  local spain = g:private("SP").bank.rp
  t:ok(spain >= 8 and spain <= 48, "Spain's trade and gold: " .. spain)
  t:ok(g:private("GB").bank.rp >= 8, "Britain's eight trade dice")
  t:eq(g:json("FR").private.SP, nil, "a nation's bank is its own")
  umpire.orders(g)
  t:eq(g:state(), "steps")
  umpire.finish_turn(g)
  t:eq(g:private("SP").bank.rp, 0, "RP are not banked")
  t:eq(g:turn(), 2)
  t:eq(g:json().phase, "Winter 1806 (turn 2)")
end)

-- Reading (RULES-GAPS.md): the campaign's last turn is Spring 1814 (turn 35) by default,
-- Winter 1814 (turn 34) with calendar.last_turn=winter-1814; the game ends after it with the
-- victory tally.
test("reading: the last turn is Spring 1814, or Winter 1814", function(t)
  t:eq(calendar.last_turn("spring-1814"), 35)
  t:eq(calendar.last_turn("winter-1814"), 34)
  local g = umpire.to_battles(t, { ["calendar.last_turn"] = "winter-1814" })
  umpire.finish_turn(g)
  for turn = 2, 34 do
    g:act("published")
    umpire.orders(g)
    umpire.finish_turn(g)
    if turn < 34 then
      t:eq(g:turn(), turn + 1)
    end
  end
  t:ok(g:result() ~= nil, "the game is over after Winter 1814")
  t:ok(g:result().text:find("after Winter 1814 (turn 34)", 1, true), g:result().text)
end)

-- Section 5 and 8, step 2: each nation's orders are private: the others read only that it
-- sent word; the umpire records them as received.
test("8 orders arrive in private, and the log says whose arrived", function(t)
  local g = umpire.to_battles(t)
  local json = g:json("GB")
  local seen = {}
  for _, entry in ipairs(json.log) do
    seen[#seen + 1] = entry.input
  end
  local all = table.concat(seen, "\n")
  t:ok(all:find("FR: sent word", 1, true), all)
  t:ok(not all:find("FR: received", 1, true), all)
  local public = table.concat(g:log("GB"), "\n")
  t:ok(public:find("Orders received from France, Austria, Britain", 1, true), public)
end)

-- Rule 19.6(e): half the ships the defeated side lost are captured. Set-up: a sea battle
-- at 1:1 (10 against 10) on a roll of 2 (20/25R), 20 men of war and 10 frigates each.
-- Expected: the defender loses 25% (5 men of war, 3 frigates: 2.5 rounds up) and retreats;
-- the attacker captures 4 of its 8 lost ships.
test("19.6e half the defeated side's lost ships are captured", function(t)
  local g = umpire.to_battles(t)
  local told = umpire.battle(g, { kind = "sea", attacker = "GB", defender = "FR", cv = { 10, 10 },
    arms = { { 20, 10 }, { 20, 10 } } }, { 1, 1 })
  t:ok(told:find("column 1:1, roll 2 (2 modified): 20/25R", 1, true), told)
  t:ok(told:find("France loses 25%: 5 men of war, 3 frigates; retreats. Britain captures 4 of France's lost ships.", 1, true), told)
end)

-- Rule 19.5(c): in a turn of the Death of a General event, one die for each side of a
-- battle; on a 1 its lowest-ranking general is killed. Set-up: a battle with the event,
-- the battle's dice 3 and 4, then 1 for France and 6 for Austria.
test("19.5c the Death of a General kills a side's general on a 1", function(t)
  local g = umpire.to_battles(t)
  g:set_dice("physical")
  g:act("battle")
  for _, v in ipairs({ "field", "FR", "AU", 10, 10, "none", 0, 5, 0, 0, 5, 0, 0 }) do
    g:act("set", v)
  end
  g:act("set", true, { 3, 4, 1, 6 })
  t:ok(umpire.told(g, "FR", "France's lowest-ranking general in the battle is killed."), "France's general dies")
  t:ok(umpire.told(g, "AU", "France's lowest-ranking general in the battle is killed."), "Austria is told")
  t:eq(umpire.told(g, "FR", "Austria's lowest-ranking general"), false, "Austria's lives")
  t:eq(umpire.told(g, "GB", "general in the battle"), false, "Britain is told nothing")
end)

-- Rule 12.5: a force march costs 10% a hex beyond the movement allowance (France 5%), at
-- most the allowance again. Set-up: a Russian army of 20 infantry and 10 cavalry marches 2
-- hexes beyond its 3; a French one of 20 infantry 2 beyond; a march of 4 beyond 3, which the
-- form does not offer (it asks 1 to 3).
test("12.5 a force march costs 10% a hex, France 5%, at most double", function(t)
  local g = t:game { scenario = "fall-1805", seed = 1, overlay = FIXTURE }
  g:act("published")
  umpire.orders(g)
  g:act("done")
  umpire.form(g, "force_march", { "RU", 3, 2, 20, 10, 0 })
  t:ok(umpire.told(g, "RU", "costs 20%: 4 infantry, 2 cavalry, 0 artillery."), "Russia at 10% a hex")
  umpire.form(g, "force_march", { "FR", 3, 2, 20, 0, 0 })
  t:ok(umpire.told(g, "FR", "costs 10%: 2 infantry"), "France at 5% a hex")
  g:act("force_march")
  for _, v in ipairs({ "RU", 3 }) do
    g:act("set", v)
  end
  local ok, err = g:try("set", 4)
  t:eq(ok, false)
  t:ok(err:find("legal: set 1..3", 1, true), err)
end)

-- Rule 16.4: each privateering fleet takes 1d6 of the victim's trade and gains as much.
-- Set-up: Britain's 2 fleets against France, the dice 4 and 5. Expected: France's RP less
-- 9, Britain's more 9, both told.
test("16.4 privateering takes a die of trade a fleet", function(t)
  local g = umpire.to_battles(t)
  local fr, gb = g:private("FR").bank.rp, g:private("GB").bank.rp
  g:set_dice("physical")
  g:act("privateering")
  g:act("set", "GB")
  g:act("set", "FR")
  g:act("set", 2, { 4, 5 })
  t:eq(g:private("FR").bank.rp, math.max(0, fr - 9))
  t:eq(g:private("GB").bank.rp, gb + 9)
  t:ok(umpire.told(g, "FR", "Britain's privateers take 9 RP of France's trade"), "France is told")
end)

-- Marauders (section 10): an attrition attack of 1d6 x 5%. Set-up: Ottoman marauders
-- against 20 Russian infantry and 7 cavalry, a die of 3. Expected: 15%: 3 infantry and 1
-- cavalry (1.05), told to both.
test("10 marauders inflict 1d6 x 5% casualties", function(t)
  local g = umpire.to_battles(t)
  g:set_dice("physical")
  g:act("marauders")
  for _, v in ipairs({ "OT", "RU", 20, 7 }) do
    g:act("set", v)
  end
  g:act("set", 0, { 3 })
  t:ok(umpire.told(g, "RU", "Ottoman Empire's marauders inflict 15% on Russia: 3 infantry, 1 cavalry, 0 artillery."), "Russia is told")
  t:ok(umpire.told(g, "OT", "inflict 15% on Russia"), "the Ottomans are told")
end)


-- Rule 8, step 8 (L62): a random event each turn, on the owner's table with the owner's dice
-- (the text gives neither: owner data, RULES-GAPS.md). Set-up: the fixture's placeholder
-- dice, two of six sides, rolled 3 and 4 at the table; then a game without the owner's
-- values. Expected:
-- "Random event (7): placeholder event 7"; without the dice entered, the step asks for them.
-- Ends the turn's steps up to the random event's.
local function to_event(g)
  for _ = 1, 12 do
    if table.concat(g:legal(), " "):find("event", 1, true) then
      return
    end
    g:act("done")
  end
end

test("8 the random event is rolled with the owner's dice", function(t)
  local g = umpire.to_battles(t)
  to_event(g)
  g:set_dice("physical")
  g:act("event", nil, { 3, 4 })
  t:ok(table.concat(g:log(), "\n"):find("Random event (7): placeholder event 7", 1, true), table.concat(g:log(), "\n"))
  local plain = t:game { scenario = "fall-1805", seed = 3 }
  plain:act("published")
  umpire.orders(plain)
  to_event(plain)
  local ok, err = pcall(function()
    plain:act("event")
  end)
  t:ok(not ok and tostring(err):find("random_event_dice", 1, true) ~= nil, tostring(err))
end)
