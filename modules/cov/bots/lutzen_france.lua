-- Congress of Vienna: the simple French bot of the Lützen & Bautzen scenario (Playbook
-- 18.4.5-18.4.7), its tables as data next to the code. Built so far: the wager card and
-- the issues it picks (18.4.5.2-18.4.5.3), Government spending (18.4.6.1), the placement of
-- French units (18.4.7.1) and the War Phase's placements and moves (18.4.7.2-18.4.7.5). The
-- rounds of negotiation, withdrawals and military cards come next;
-- for a decision it has no table for yet, the bot says so and takes the first action.

local flowchart = include("@lib/flowchart.lua")
local util = include("@lib/util.lua")
local forces = include("rules/forces.lua")
local war = include("rules/war.lua")
local display = include("rules/display.lua")

local bot = {}

-- 18.4.5.3: the issues France takes in Issue Selection, in order; then the French priority
-- list of 18.4.5.7 (RULES-GAPS.md). "minor_unit": a minor ally that provides a unit.
local SELECTION = { "lib_abs", "saxony", "mil_op_fr" }
local PRIORITY = { "recruit_fr", "lib_abs", "minor_unit", "sweden_at_war", "mil_op_fr", "fin_aid_br", "minor",
  "allied_mil_op", "allied_recruitment" }

-- 18.4.7.2: the French Military Operations go to these armies, in this order.
local OPERATIONS = { "block.grande_armee", "block.elbe" }

-- 18.4.7.4: after two on the Grande Armée, supports go to fronts with a battle, in this
-- order.
local SUPPORT_FRONTS = { "B", "D", "G", "E", "C", "F" }

-- 18.4.7.5: units leave fronts without a battle in this order, and go to fronts with a
-- battle in this order, one each in turn.
local MOVE_FROM = { "F", "C", "E", "D", "B", "A" }
local MOVE_TO = { "B", "A", "D", "E", "C", "F" }

local function index_of(actions, wanted)
  return flowchart.first(actions, wanted)
end

-- The French army of a front (the War of 1812 box for G).
local function french_box(ctx, front)
  if front == "G" then
    return forces.W1812
  end
  for _, block in ipairs(forces.armies_of(ctx, "FR")) do
    if forces.front_of(ctx, block) == front then
      return forces.box(block)
    end
  end
  return nil
end

-- 18.4.7.2 and 18.4.7.3: France's own Military Operations, then the Allied ones it won
-- (the Russian on Front A; the British where France's unit advantage is best).
function bot.place_ops(ctx, _, actions, t)
  local op = ctx.locals.todo[1]
  if op.enemy and op.owner == "RU" then
    t:step("18.4.7.3: a won Russian Military Operation goes to Front A.")
    local i = index_of(actions, function(a)
      return type(a.arg) == "string" and string.find(a.arg, "^block%.") and forces.front_of(ctx, a.arg) == "A"
    end)
    return t:choose(i or 1, "%s.", actions[i or 1].label)
  elseif op.enemy then
    t:step("18.4.7.3: a won British Military Operation goes where France's unit advantage is best.")
    local best, best_diff
    for k, action in ipairs(actions) do
      local front = action.arg == forces.W1812 and "G" or forces.front_of(ctx, action.arg)
      local mine = french_box(ctx, front)
      local diff = (mine and forces.units(ctx, mine, "FR") or 0) - forces.units(ctx, front == "G" and forces.W1812
        or forces.box(action.arg), "allied")
      t:step("Front %s: %+d units.", front, diff)
      if best_diff == nil or diff > best_diff then
        best, best_diff = k, diff
      end
    end
    return t:choose(best, "%s: the best differential (%+d).", actions[best].label, best_diff)
  end
  local placed = 0
  for _, entry in ipairs(ctx.vars.war.ops) do
    if entry.owner == "FR" and entry.by == "FR" then
      placed = placed + 1
    end
  end
  local wanted = OPERATIONS[placed + 1]
  local i = wanted and index_of(actions, function(a)
    return a.arg == wanted
  end)
  if i == nil then
    return t:choose(1, "18.4.7.2 lists %d French Military Operations; this one goes with the first army offered.", #OPERATIONS)
  end
  return t:choose(i, "18.4.7.2, operation %d: %s.", placed + 1, actions[i].label)
end

-- 18.4.7.4: two Military Support markers on the Grande Armée, then one on each front that
-- will have a battle, in order.
function bot.place_supports(ctx, _, actions, t)
  local ga = index_of(actions, function(a)
    return a.arg == "army.grande_armee"
  end)
  if ga then
    return t:choose(ga, "18.4.7.4: the Grande Armée gets 2 (it has %d).", ctx:units("army.grande_armee", "FR_support"))
  end
  for _, front in ipairs(SUPPORT_FRONTS) do
    local box = french_box(ctx, front)
    if war.battle_on(ctx, front) and box then
      local i = index_of(actions, function(a)
        return a.arg == box
      end)
      if i then
        return t:choose(i, "18.4.7.4: Front %s will have a battle: %s.", front, actions[i].label)
      end
    end
  end
  local done = index_of(actions, function(a)
    return a.name == "done"
  end)
  return t:choose(done, "18.4.7.4: no other front with a battle takes a marker.")
end

-- 18.4.7.5: one unit at a time from a front without a battle (F, C, E, D, B, A) to a front
-- with one (B, A, D, E, C, F), the fronts with a battle served in turn; every army keeps a
-- unit.
function bot.strategic(ctx, _, actions, t)
  local to_fronts = {}
  for _, front in ipairs(MOVE_TO) do
    if war.battle_on(ctx, front) and french_box(ctx, front) then
      to_fronts[#to_fronts + 1] = front
    end
  end
  local done = index_of(actions, function(a)
    return a.name == "done"
  end)
  if #to_fronts == 0 then
    return t:choose(done, "18.4.7.5: no French army has a battle to reinforce.")
  end
  local moved = #(ctx.locals.moves or {})
  local to = to_fronts[moved % #to_fronts + 1]
  t:step("18.4.7.5: fronts with a battle, in order: %s; move %d goes to Front %s.", table.concat(to_fronts, ", "),
    moved + 1, to)
  for _, front in ipairs(MOVE_FROM) do
    local from = french_box(ctx, front)
    if from and not war.battle_on(ctx, front) then
      local i = index_of(actions, function(a)
        return a.name == "move" and a.arg.from == from and a.arg.to == french_box(ctx, to) and a.arg.kind == "FR"
      end)
      if i then
        return t:choose(i, "Front %s has no battle and a unit to spare: %s.", front, actions[i].label)
      end
    end
  end
  return t:choose(done, "18.4.7.5: no front without a battle has a unit to spare.")
end

-- 18.4.6.1, after the mandatory issues (which the rules pay): French Recruitment, minor
-- countries that give units, Military Support up to the Military Operations of the turn,
-- one Resource on the Liberalism roll, then Sound Government.
-- Reading (RULES-GAPS.md): the operations counted are France's own and Napoleon's free one,
-- and the Grande Armée's second marker with Napoleon (18.4.7.4) counts as one more.
local function gives_units(ctx, piece)
  local key = ctx.data.pieces[piece].props.issue .. "/FR"
  if not ctx:known("table", "issue_funding", key) then
    return true
  end
  for kind, n in pairs(ctx.data.tables.issue_funding[key]) do
    if kind ~= "vp" and n > 0 then
      return true
    end
  end
  return false
end

local function support_limit(ctx)
  local ops = 0
  for id, power in pairs((ctx.vars.government or {}).funded or {}) do
    if power == "FR" and ctx.data.pieces[id].props.issue == "mil_op_fr" then
      ops = ops + 1
    end
  end
  if war.napoleon_available(ctx) then
    ops = ops + 2
  end
  return ops
end

function bot.spend(ctx, _, actions, t)
  local function find(name, arg)
    return index_of(actions, function(a)
      return a.name == name and (arg == nil or a.arg == arg)
    end)
  end
  local i = find("fund", "issue.recruit_fr")
  if i then
    return t:choose(i, "18.4.6.1, 1: French Recruitment.")
  end
  i = index_of(actions, function(a)
    return a.name == "fund" and ctx.data.pieces[a.arg].props.minor ~= nil and gives_units(ctx, a.arg)
  end)
  if i then
    return t:choose(i, "18.4.6.1, 2: a minor country that gives units: %s.", actions[i].label)
  end
  local bought = ((ctx.vars.government or {}).supports or {}).FR or 0
  local limit = support_limit(ctx)
  i = find("support")
  if i and t:ask(string.format("18.4.6.1, 3: %d Military Support bought, fewer than %d (the operations this turn)?", bought,
    limit), bought < limit) then
    return t:choose(i, "Buy one.")
  end
  local spent = 0
  for _, entry in ipairs(((ctx.vars.government or {}).drm or {}).lib_abs or {}) do
    spent = spent + (entry.power == "FR" and 1 or 0)
  end
  -- Liberalism: France's own issue funded, or one Resource on the roll when Britain won it.
  local liberal = util.contains({ "FR", "BR" }, display.track_of(ctx, "issue.lib_abs"))
  i = find("fund", "issue.lib_abs") or (spent == 0 and liberal and find("lib_abs")) or nil
  if i then
    return t:choose(i, "18.4.6.1, 4: the Liberalism roll, one Resource.")
  end
  i = find("sound")
  if i then
    return t:choose(i, "18.4.6.1, 5: Sound Government.")
  end
  return t:choose(find("done"), "Nothing left to spend on.")
end

-- 18.4.7.1: new French units: one to each army without a unit (fronts in alphabetical
-- order), the Grande Armée up to 4, then half of the rest (rounded up) to Front A, half of
-- the rest to B, half of the rest to D, the rest to C. The plan is made for all the units
-- to place at once; the bot places them one at a time in its order.
local HALVES = { "A", "B", "D" }

local function placement_plan(ctx, n, counts)
  local plan = {}
  local function put(box)
    plan[#plan + 1] = box
    counts[box] = (counts[box] or 0) + 1
  end
  local fronts = {}
  for _, front in ipairs(forces.FRONTS) do
    local box = french_box(ctx, front)
    if box and front ~= "G" then
      fronts[#fronts + 1] = { front = front, box = box }
    end
  end
  for _, entry in ipairs(fronts) do
    if #plan < n and (counts[entry.box] or 0) == 0 then
      put(entry.box)
    end
  end
  local ga = "army.grande_armee"
  while #plan < n and forces.active(ctx, "block.grande_armee") and (counts[ga] or 0) < 4 do
    put(ga)
  end
  for _, front in ipairs(HALVES) do
    local box = french_box(ctx, front)
    local half = math.ceil((n - #plan) / 2)
    for _ = 1, box and half or 0 do
      put(box)
    end
  end
  local last = french_box(ctx, "C") or french_box(ctx, "A")
  while #plan < n and last do
    put(last)
  end
  return plan
end

function bot.new_units(ctx, _, actions, t)
  local placed = ctx.locals.placed or {}
  local counts, french = {}, 0
  for _, block in ipairs(forces.armies_of(ctx, "FR")) do
    local box = forces.box(block)
    counts[box] = forces.units(ctx, box, "FR")
  end
  for _, entry in ipairs(placed) do
    if entry.kind == "FR" then
      counts[entry.box] = (counts[entry.box] or 0) - 1
      french = french + 1
    end
  end
  local us = index_of(actions, function(a)
    return a.arg.kind == "US"
  end)
  if us then
    return t:choose(us, "A US unit goes to the War of 1812 box.")
  end
  local n = ctx:units("reserve.FR", "FR") + french
  local plan = placement_plan(ctx, n, counts)
  local box = plan[french + 1]
  t:step("18.4.7.1: the plan for %d new units: %s.", n, table.concat(plan, ", "))
  local i = box and index_of(actions, function(a)
    return a.arg.box == box and a.arg.kind == "FR"
  end)
  return t:choose(i or 1, "Unit %d of %d: %s.", french + 1, n, actions[i or 1].label)
end

-- The minor countries' issues (those with a "minor" property in data/issues.ron).
local MINORS = { italy = true, naples = true, bavaria = true, norway = true, saxony = true, holland = true,
  hanover = true, poland = true, savoy = true }

-- The issue kinds a priority entry names.
local function matches(ctx, piece, entry)
  local props = ctx.data.pieces[piece].props
  if entry == "minor_unit" or entry == "minor" then
    local ally = MINORS[props.issue] and ctx:known("piece", piece, "minor") and props.minor == "french_ally"
    return ally and (entry == "minor" or gives_units(ctx, piece))
  elseif entry == "allied_mil_op" then
    return util.contains({ "mil_op_ru", "mil_op_br", "mil_op_au" }, props.issue)
  elseif entry == "allied_recruitment" then
    return util.contains({ "recruit_ru", "recruit_br", "recruit_au" }, props.issue)
  end
  return props.issue == entry
end

-- The first offered issue of `list`, in its order.
local function first_issue(ctx, actions, list)
  for rank, entry in ipairs(list) do
    local i = index_of(actions, function(a)
      return type(a.arg) == "string" and ctx.data.pieces[a.arg] ~= nil and matches(ctx, a.arg, entry)
    end)
    if i then
      return i, rank, entry
    end
  end
  return nil
end

-- 18.4.5.2: the wager card is the highest-valued Allied or Austrian card of the hand (at
-- random among equals; a card whose value is not entered counts as none).
function bot.wager(ctx, _, actions, t)
  local best, candidates = nil, {}
  for k, action in ipairs(actions) do
    local card = action.arg
    local f = ctx.data.cards[card].fields
    local nation = ctx:known("card", card, "nation") and f.nation or nil
    if util.contains({ "RU", "BR", "AU" }, nation) then
      local value = ctx:known("card", card, "value") and f.value or -1
      if best == nil or value > best then
        best, candidates = value, { k }
      elseif value == best then
        candidates[#candidates + 1] = k
      end
    end
  end
  if #candidates == 0 then
    return t:choose(1, "18.4.5.2: no Allied or Austrian card in hand: the first card.")
  end
  local pick = candidates[#candidates > 1 and ctx:random(#candidates, "18.4.5.2: equal wager cards") or 1]
  return t:choose(pick, "18.4.5.2: the highest Allied or Austrian card (%d): %s.", best, actions[pick].label)
end

-- 18.4.5.3: a won Wager takes Liberalism; Issue Selection follows the list, then the
-- French priority list.
function bot.free_issue(ctx, _, actions, t)
  local i = first_issue(ctx, actions, { "lib_abs" }) or first_issue(ctx, actions, PRIORITY)
  return t:choose(i or 1, "18.4.5.3: France won the Wager: %s.", actions[i or 1].label)
end

function bot.selection(ctx, _, actions, t)
  local i, rank = first_issue(ctx, actions, SELECTION)
  if i then
    return t:choose(i, "18.4.5.3, choice %d: %s.", rank, actions[i].label)
  end
  i, rank = first_issue(ctx, actions, PRIORITY)
  if i then
    return t:choose(i, "18.4.5.3 lists none left; the French priority list (18.4.5.7), %d: %s.", rank, actions[i].label)
  end
  local pick = ctx:random(#actions, "18.4.5.7: none of the list; at random")
  return t:choose(pick, "None of the French priority issues: at random, %s.", actions[pick].label)
end

return function(ctx, seat, actions)
  local t = flowchart.trace()
  local decide = bot[ctx:state()]
  if decide == nil then
    return t:choose(1, "No table of 18.4 for state %s yet: the first action.", tostring(ctx:state()))
  end
  return decide(ctx, seat, actions, t)
end
