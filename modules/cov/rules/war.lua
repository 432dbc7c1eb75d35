-- Congress of Vienna: the War Phase (16.4). Steps 1-3 go power by power from the left of
-- the Diplomacy Phase's winner, clockwise (L470): Military Operations are placed, then
-- Military Support markers, then strategic movement. Step 4 fights a battle on each front
-- from A to G where a Military Operation stands (rules/battle.lua).

local util = include("@lib/util.lua")
local powers = include("rules/powers.lua")
local display = include("rules/display.lua")
local forces = include("rules/forces.lua")
local issues = include("rules/issues.lua")
local solitaire = include("rules/solitaire.lua")
local handicap = include("rules/handicap.lua")

local steps = include("@lib/steps.lua")

local war = {}

local name = powers.name

local function w(ctx)
  return ctx.vars.war
end

-- Whether France holds NAPOLEON for the War Phase (L425: a free Military Operation; L480:
-- two Military Support markers on the Grande Armée).
function war.napoleon_available(ctx)
  return util.contains(ctx:zone(powers.hand_zone(ctx, "FR")), "napoleon")
end

-- The Military Operations `power` places: its own funded ones, the other powers' it won
-- (L593: their winner places them), and NAPOLEON's free one.
local function operations_of(ctx, power)
  local list = {}
  local funded = (ctx.vars.government or {}).funded or {}
  for _, id in ipairs(util.pieces_of_kind(ctx, "issue")) do
    if issues.is_military_operation(ctx, id) then
      local owner = issues.operation_owner(ctx, id)
      local winner = display.track_of(ctx, id)
      if winner == power and owner == power and funded[id] then
        list[#list + 1] = { marker = id, owner = owner }
      elseif winner == power and owner ~= power and not powers.out(ctx, owner) then
        list[#list + 1] = { marker = id, owner = owner, enemy = true }
      end
    end
  end
  if power == "FR" and war.napoleon_available(ctx) then
    list[#list + 1] = { marker = "napoleon", owner = "FR" }
  end
  return list
end

local function marker_name(ctx, op)
  if op.marker == "napoleon" then
    return "Napoleon's free Military Operation"
  end
  return ctx.data.pieces[op.marker].name
end

-- Where a Military Operation of `op.owner` may go: with one of the owner's armies, in the
-- War of 1812 box (France and Britain), and, placed by an enemy, a Russian one in the
-- Russian-Persian War box (L593).
local function op_targets(ctx, op)
  local list = {}
  for _, block in ipairs(forces.armies_of(ctx, op.owner)) do
    list[#list + 1] = { arg = block, piece = block, label = ctx.data.pieces[block].name }
  end
  if op.owner == "FR" or op.owner == "BR" then
    list[#list + 1] = { arg = forces.W1812, box = forces.W1812, label = "the War of 1812 box" }
  end
  if op.enemy and op.owner == "RU" then
    list[#list + 1] = { arg = "russian_persian_war", box = "russian_persian_war", label = "the Russian-Persian War box" }
  end
  return list
end

-- The front a placement stands on ("G" for the War of 1812 box; nil for elsewhere).
local function front_of_target(ctx, target)
  if target == forces.W1812 then
    return "G"
  elseif string.find(target, "^block%.") then
    return forces.front_of(ctx, target)
  end
  return nil
end

-- Step 1: Military Operations.
war.place_ops = {}

function war.place_ops.prompt(ctx)
  local locals = ctx.locals
  local op = locals.todo[1]
  local actions = {}
  for _, target in ipairs(op_targets(ctx, op)) do
    actions[#actions + 1] = { name = "place", arg = target.arg, piece = target.piece, box = target.box,
      label = "With " .. target.label }
  end
  return {
    seat = powers.seat(ctx, locals.power),
    text = string.format("%sWar Phase, step 1: place %s%s.", powers.as_power(ctx, locals.power), marker_name(ctx, op),
      op.enemy and " (won from " .. name(ctx, op.owner) .. ")" or ""),
    actions = actions,
  }
end

function war.place_ops.place(ctx, target)
  local locals = ctx.locals
  local op = table.remove(locals.todo, 1)
  local front = front_of_target(ctx, target)
  if op.marker ~= "napoleon" then
    if target == forces.W1812 then
      ctx:place(op.marker, "front.g", "war_of_1812")
    elseif target == "russian_persian_war" then
      ctx:place(op.marker, "russian_persian_war", "box")
    else
      local place, space = ctx:space_of(target)
      ctx:place(op.marker, place, space)
    end
  end
  table.insert(w(ctx).ops, { marker = op.marker, owner = op.owner, by = locals.power, target = target, front = front })
  local where = target == forces.W1812 and "the War of 1812 box" or target == "russian_persian_war"
    and "the Russian-Persian War box" or ctx.data.pieces[target].name
  ctx:log(string.format("%s places %s with %s%s.", name(ctx, locals.power), marker_name(ctx, op), where,
    front and (" (Front " .. front .. ")") or ""))
  if #locals.todo == 0 then
    ctx:pop({})
  end
end

-- Step 2: Military Support markers (L478-L488): at most one with each of the power's armies
-- (France two on the Grande Armée with NAPOLEON), and one in the War of 1812 box for
-- France or Britain.
war.place_supports = {}

local function support_limit(ctx, power, box)
  if power == "FR" and box == "army.grande_armee" and war.napoleon_available(ctx) then
    return 2
  end
  return 1
end

local function support_targets(ctx, power)
  local kind = forces.support_kind(power)
  local list = {}
  for _, block in ipairs(forces.armies_of(ctx, power)) do
    local box = forces.box(block)
    if (ctx:box(box)[kind] or 0) < support_limit(ctx, power, box) then
      list[#list + 1] = box
    end
  end
  if (power == "FR" or power == "BR") and (ctx:box(forces.W1812)[kind] or 0) < 1 then
    list[#list + 1] = forces.W1812
  end
  return list
end

function war.place_supports.prompt(ctx)
  local power = ctx.locals.power
  local actions = {}
  for _, box in ipairs(support_targets(ctx, power)) do
    actions[#actions + 1] = { name = "place", arg = box, box = box, label = "With " .. ctx.data.boxes[box].name }
  end
  actions[#actions + 1] = { name = "done", label = string.format("Leave the other %d unplaced", ctx.locals.left) }
  return {
    seat = powers.seat(ctx, power),
    text = string.format("%sWar Phase, step 2: place your Military Support markers (%d left; +3 each in battle).",
      powers.as_power(ctx, power), ctx.locals.left),
    actions = actions,
  }
end

function war.place_supports.place(ctx, box)
  local power = ctx.locals.power
  local kind = forces.support_kind(power)
  local supply = "supports." .. power
  if ctx:units(supply, kind) < 1 then
    -- Set-up could not count the markers the power owns (owner data entered later).
    ctx:add_units(supply, kind, 1)
  end
  ctx:move_units(supply, box, kind, 1)
  ctx.locals.left = ctx.locals.left - 1
  ctx:log(string.format("%s places a Military Support marker with %s.", name(ctx, power), ctx.data.boxes[box].name))
  if ctx.locals.left == 0 or #support_targets(ctx, power) == 0 then
    ctx:pop({})
  end
end

function war.place_supports.done(ctx)
  ctx:pop({})
end

-- Step 3: strategic movement (L490-L501): up to two units between the power's armies (two
-- more for France with BERTHIER in hand), any number of British fleets (each once); every
-- army keeps at least one unit.
war.strategic = {}

local function move_targets(ctx, power, left, fleets)
  local armies = {}
  for _, block in ipairs(forces.armies_of(ctx, power)) do
    armies[#armies + 1] = forces.box(block)
  end
  local actions = {}
  for _, from in ipairs(armies) do
    local total, kinds = forces.units(ctx, from)
    if total > 1 then
      for _, entry in ipairs(kinds) do
        local fleet = entry.kind == "BR_fleet"
        if forces.kind_of_power(power, entry.kind) and ((fleet and (fleets or 0) > 0) or (not fleet and left > 0)) then
          for _, to in ipairs(armies) do
            if to ~= from then
              actions[#actions + 1] = { name = "move", arg = { kind = entry.kind, from = from, to = to }, box = to,
                label = string.format("A %s from %s to %s", ctx.data.unit_kinds[entry.kind].name,
                  ctx.data.boxes[from].name, ctx.data.boxes[to].name) }
            end
          end
        end
      end
    end
  end
  return actions
end

-- The reserve a bot keeps in its capital (the National Reserve, 20.9; the Paris Reserve,
-- 21.8.2) is placed in strategic movement, a unit at a time, to the armies new units may
-- join; it does not count against the moves (RULES-GAPS.md), and the power is done only
-- once it is placed.
local function reserve_targets(ctx, power)
  local actions = {}
  local reserve = "reserve." .. power
  local _, kinds = forces.units(ctx, reserve)
  for _, entry in ipairs(kinds) do
    for _, box in ipairs(forces.new_unit_targets(ctx, power, entry.kind)) do
      actions[#actions + 1] = { name = "reserve", arg = { kind = entry.kind, box = box }, box = box,
        label = string.format("A %s of the reserve from %s to %s", ctx.data.unit_kinds[entry.kind].name,
          ctx.data.boxes[reserve].name, ctx.data.boxes[box].name) }
    end
  end
  return actions
end

function war.strategic.prompt(ctx)
  local power = ctx.locals.power
  local actions = reserve_targets(ctx, power)
  local reserve = #actions > 0
  for _, action in ipairs(move_targets(ctx, power, ctx.locals.left, ctx.locals.fleets)) do
    actions[#actions + 1] = action
  end
  if not reserve then
    actions[#actions + 1] = { name = "done", label = "Done moving" }
  end
  return {
    seat = powers.seat(ctx, power),
    text = string.format("%sWar Phase, step 3: strategic movement, %d unit moves left%s; every army keeps a unit.%s",
      powers.as_power(ctx, power), ctx.locals.left, power == "BR" and " (fleets move freely)" or "",
      reserve and string.format(" Place the reserve in %s first (20.9, 21.8.2).", ctx.data.boxes["reserve." .. power].name) or ""),
    actions = actions,
  }
end

function war.strategic.reserve(ctx, arg)
  local power = ctx.locals.power
  ctx:move_units("reserve." .. power, arg.box, arg.kind, 1)
  ctx:log(string.format("%s places a %s of its reserve with %s.", name(ctx, power), ctx.data.unit_kinds[arg.kind].name,
    ctx.data.boxes[arg.box].name))
  if #reserve_targets(ctx, power) == 0 and #move_targets(ctx, power, ctx.locals.left, ctx.locals.fleets) == 0 then
    ctx:pop({})
  end
end

function war.strategic.move(ctx, arg)
  local power = ctx.locals.power
  if #move_targets(ctx, power, ctx.locals.left, ctx.locals.fleets) == 0 then
    error("no unit move is left", 0)
  end
  ctx:move_units(arg.from, arg.to, arg.kind, 1)
  if arg.kind == "BR_fleet" then
    ctx.locals.fleets = ctx.locals.fleets - 1
  else
    ctx.locals.left = ctx.locals.left - 1
  end
  ctx.locals.moves = ctx.locals.moves or {}
  table.insert(ctx.locals.moves, arg)
  ctx:log(string.format("%s moves a %s from %s to %s.", name(ctx, power), ctx.data.unit_kinds[arg.kind].name,
    ctx.data.boxes[arg.from].name, ctx.data.boxes[arg.to].name))
  if #move_targets(ctx, power, ctx.locals.left, ctx.locals.fleets) == 0 and #reserve_targets(ctx, power) == 0 then
    ctx:pop({})
  end
end

function war.strategic.done(ctx)
  if #reserve_targets(ctx, ctx.locals.power) > 0 then
    error("the reserve must be placed before the power is done", 0)
  end
  ctx:pop({})
end

-- Whether a battle is fought on `front`: a Military Operation stands there (L476, L503),
-- or on Front G the US Military Operation placed in the War of 1812 box.
function war.battle_on(ctx, front)
  for _, op in ipairs(w(ctx).ops) do
    if op.front == front then
      return true
    end
  end
  if front == "G" then
    local place = ctx:space_of("issue.mil_op_us")
    return place == "front.g"
  end
  return false
end

-- The War Phase's order: from the left of the Diplomacy Phase's winner, clockwise (L470).
function war.order(ctx)
  local winner = (ctx.vars.diplomacy or {}).phase_winner
  return powers.from_left_of(ctx, winner or "AU", function(p)
    return not powers.out(ctx, p)
  end)
end

-- What a power is asked in each of Steps 1-3 (a state and its locals), or nothing.
local function placing_ops(ctx, power)
  local todo = operations_of(ctx, power)
  if #todo > 0 then
    return steps.call("place_ops", { power = power, todo = todo })
  end
end

local function placing_supports(ctx, power)
  local bought = ((ctx.vars.government or {}).supports or {})[power] or 0
  if bought > 0 and #support_targets(ctx, power) > 0 then
    return steps.call("place_supports", { power = power, left = bought })
  end
end

local function moving(ctx, power)
  local left = 2
  if power == "FR" and util.contains(ctx:zone(powers.hand_zone(ctx, "FR")), "berthier") then
    left = 4
  end
  -- Any number of British fleets, each moved once (RULES-GAPS.md).
  local fleets = 0
  if power == "BR" then
    for _, block in ipairs(forces.armies_of(ctx, "BR")) do
      fleets = fleets + (ctx:box(forces.box(block)).BR_fleet or 0)
    end
  end
  if #move_targets(ctx, power, left, fleets) > 0 or #reserve_targets(ctx, power) > 0 then
    return steps.call("strategic", { power = power, left = left, fleets = fleets })
  end
end

-- Steps 1-3 are played by every power in turn, in the War Phase's order (worked out once,
-- at the phase's start); then a battle on every front where one is due (16.4).
local each_power = steps.listed("order")

-- In the solitaire seatings Kutuzov, set aside while he lives, joins Russia at the start of
-- each War Phase (19.3, the first note, L1440), among the Coalition's cards, and is set
-- aside again at its end, played or not.
function war.kutuzov_joins(ctx)
  if powers.solitaire(ctx) and ctx:card_zone("kutuzov") == "aside" then
    ctx:move_card("kutuzov", solitaire.hand_of_side("allies"))
    ctx:log("Kutuzov joins Russia for the War Phase (19.3).")
  end
end

function war.kutuzov_aside(ctx)
  local zone = powers.solitaire(ctx) and ctx:card_zone("kutuzov")
  if zone == solitaire.hand_of_side("allies") or zone == "discard" then
    ctx:move_card("kutuzov", "aside")
    ctx:log("Kutuzov is set aside again until the next War Phase (19.3).")
  end
end

war.war = steps.procedure("16.4 War Phase", {
  {
    name = "the order of play",
    run = function(ctx)
      ctx.locals.order = war.order(ctx)
      war.kutuzov_joins(ctx)
    end,
  },
  handicap.step("start of the War Phase"),
  {
    -- A Generalissimo held from the start (L934) and not yet on an army heads one now.
    name = "the Generalissimo's headquarters",
    calls = "decide",
    run = function(ctx)
      local g = ctx.vars.generalissimo
      if g and g.army == nil then
        return steps.call("decide", issues.generalissimo_question(ctx, g.power))
      end
    end,
    resume = function(ctx, result)
      issues.resume(ctx, nil, result)
    end,
  },
  { name = "Step 1, Military Operations", each = each_power, label = name, run = placing_ops,
    calls = "place_ops" },
  { name = "Step 2, Military Supports", each = each_power, label = name, run = placing_supports,
    calls = "place_supports" },
  { name = "Step 3, strategic movement", each = each_power, label = name, run = moving,
    calls = "strategic" },
  {
    name = "battles",
    calls = "battle",
    each = function()
      return forces.FRONTS
    end,
    skip = function(ctx, front)
      return not war.battle_on(ctx, front)
    end,
    run = function(ctx, front)
      return steps.call("battle", { front = front })
    end,
  },
  {
    name = "Kutuzov set aside",
    run = war.kutuzov_aside,
  },
  finish = function()
    return {}
  end,
})

function war.war.on_enter(ctx)
  ctx.vars.war = { ops = {} }
end

return war
