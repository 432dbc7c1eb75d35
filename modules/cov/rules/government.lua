-- Congress of Vienna: the Government Phase (16.3). Every power receives its Resources
-- (the turn's base, the cards' bonuses, British Financial Aid paid by Britain), pays for
-- its mandatory issues, then spends the rest one power after the other from the winner of
-- the Diplomacy Phase, clockwise (L423): funding won issues, Military Support markers, +1
-- on the Liberalism/Absolutism and Pax Britannica rolls, Sound Government VP. Then the two
-- rolls, then the new units go to the armies. What each issue does when funded is in
-- rules/issues.lua.

local util = include("@lib/util.lua")
local modifiers = include("@lib/modifiers.lua")
local powers = include("rules/powers.lua")
local display = include("rules/display.lua")
local forces = include("rules/forces.lua")
local issues = include("rules/issues.lua")
local solitaire = include("rules/solitaire.lua")
local handicap = include("rules/handicap.lua")

local steps = include("@lib/steps.lua")

local government = {}

local name = powers.name

local function gov(ctx)
  return ctx.vars.government
end

local function resources(ctx, power)
  return ctx:counter("resources." .. power)
end

local function pay(ctx, power, n)
  ctx:add_counter("resources." .. power, -n)
end

-- The powers from the winner of the Diplomacy Phase, clockwise (L423); from France when
-- nobody won.
function government.order(ctx)
  local winner = (ctx.vars.diplomacy or {}).phase_winner
  local order = {}
  local rest = powers.from_left_of(ctx, winner or "AU", function(p)
    return not powers.out(ctx, p)
  end)
  if winner and not powers.out(ctx, winner) then
    order[1] = winner
  end
  for _, power in ipairs(rest) do
    if power ~= winner then
      order[#order + 1] = power
    end
  end
  return order
end

-- The issues a power won: those on its National Track, in the data's order.
function government.won(ctx, power)
  local list = {}
  for _, id in ipairs(util.pieces_of_kind(ctx, "issue")) do
    if display.track_of(ctx, id) == power then
      list[#list + 1] = id
    end
  end
  return list
end

-- Income (16.3, L425-L431): the base Resources of the turn (owner data by turn), the cards'
-- government bonuses, then British Financial Aid: Britain pays 1 Resource to each power
-- that won one of its Financial Aid markers (mandatory, before anyone spends).
local function income(ctx)
  for _, power in ipairs(government.order(ctx)) do
    local base = ctx.data.tables.base_resources[string.format("%d/%s", ctx:turn(), power)]
    local total = ctx:add_counter("resources." .. power, base)
    ctx:log(string.format("%s receives %d Resources for turn %d (%d in all).", name(ctx, power), base, ctx:turn(), total))
  end
  for _, id in ipairs(util.pieces_of_kind(ctx, "issue")) do
    local piece = ctx.data.pieces[id]
    local winner = display.track_of(ctx, id)
    if piece.props.issue == "fin_aid_br" and winner and winner ~= "BR" and not powers.out(ctx, "BR") then
      if resources(ctx, "BR") > 0 then
        pay(ctx, "BR", 1)
        ctx:add_counter("resources." .. winner, 1)
        ctx:log(string.format("British Financial Aid: Britain pays 1 Resource to %s (%s now has %d).", name(ctx, winner),
          name(ctx, winner), resources(ctx, winner)))
      else
        ctx:log(string.format("British Financial Aid: Britain has no Resource left to pay %s (RULES-GAPS.md).", name(ctx, winner)))
      end
    end
  end
  for _, cost in ipairs(ctx.vars.government_costs or {}) do
    local have = resources(ctx, cost.power)
    local paid = math.min(have, cost.resources)
    pay(ctx, cost.power, paid)
    ctx:log(string.format("%s pays %d Resource for %s.", name(ctx, cost.power), paid, cost.why))
  end
end

-- The Liberalism/Absolutism roll: which side's pawn, from the issue's winner.
local function lib_abs_side(ctx)
  local winner = display.track_of(ctx, "issue.lib_abs")
  if winner == nil then
    return nil
  end
  return (winner == "FR" or winner == "BR") and "liberalism" or "absolutism"
end

local SIDE_NAMES = { liberalism = "Liberalism", absolutism = "Absolutism" }

-- Spending (16.3): one power's turn. Mandatory issues are paid first, as the power enters.
government.spend = {}

function government.spend.on_enter(ctx)
  local power = ctx.locals.power
  local g = gov(ctx)
  for _, piece in ipairs(government.won(ctx, power)) do
    local kind = issues.classify(ctx, piece, power)
    if kind == "mandatory" and not g.funded[piece] then
      if resources(ctx, power) > 0 then
        pay(ctx, power, 1)
        ctx:log(string.format("%s funds %s (mandatory, 1 Resource).", name(ctx, power), ctx.data.pieces[piece].name))
        g.funded[piece] = power
        issues.fund(ctx, piece, power)
      else
        ctx:log(string.format("%s has no Resource for %s: it is not funded (RULES-GAPS.md).", name(ctx, power),
          ctx.data.pieces[piece].name))
      end
    elseif kind == "denied" then
      ctx:log(string.format("%s on %s's track: it only denies it to the power it serves; nothing to fund.",
        ctx.data.pieces[piece].name, name(ctx, power)))
    end
  end
end

local function supports_left(ctx, power)
  if not ctx:known("table", "military_support_markers", power) then
    return 1
  end
  local owned = ctx.data.tables.military_support_markers[power]
  return owned - (gov(ctx).supports[power] or 0)
end

function government.spend.prompt(ctx)
  local power = ctx.locals.power
  local g = gov(ctx)
  local have = resources(ctx, power)
  local actions = {}
  if have > 0 then
    for _, piece in ipairs(government.won(ctx, power)) do
      if not g.funded[piece] and issues.classify(ctx, piece, power) == "optional" then
        actions[#actions + 1] = { name = "fund", arg = piece, piece = piece,
          label = string.format("Fund %s (1 Resource): %s", ctx.data.pieces[piece].name, issues.describe(ctx, piece, power)) }
      end
    end
    if supports_left(ctx, power) > 0 then
      actions[#actions + 1] = { name = "support", label = string.format("Buy a %s Military Support marker (1 Resource; +3 in a battle)",
        powers.adjective(power)) }
    end
    local side = lib_abs_side(ctx)
    if side then
      actions[#actions + 1] = { name = "lib_abs", label = string.format("+1 on the %s roll (1 Resource; rolled if its winner funds it)",
        SIDE_NAMES[side]) }
    end
    if power == "BR" then
      actions[#actions + 1] = { name = "pax", label = "+1 on the Pax Britannica roll (1 Resource)" }
    end
    actions[#actions + 1] = { name = "sound", label = "Sound Government: 1 VP (1 Resource)" }
  end
  if power == "BR" then
    for _, box in ipairs(government.fleet_boxes(ctx)) do
      actions[#actions + 1] = { name = "pax_fleet", arg = box, box = box,
        label = string.format("Return a fleet from %s to the force pool: +1 on the Pax Britannica roll", ctx.data.boxes[box].name) }
    end
  end
  local lost = have == 1 and "1 Resource unspent is lost" or string.format("%d Resources unspent are lost", have)
  actions[#actions + 1] = {
    name = "done",
    label = have > 0 and string.format("Done (%s)", lost) or "Done",
    confirm = have > 0 and string.format("%s: Resources are not kept for the next turn.", lost) or nil,
  }
  return {
    seat = powers.seat(ctx, power),
    text = string.format("%sGovernment Phase: %s has %d Resources to spend.", powers.as_power(ctx, power), name(ctx, power), have),
    actions = actions,
  }
end

-- The boxes on the map holding British fleets.
function government.fleet_boxes(ctx)
  local list = {}
  for _, box in ipairs(ctx.data.box_ids) do
    if not string.find(box, "^pool%.") and (ctx:box(box).BR_fleet or 0) > 0 then
      list[#list + 1] = box
    end
  end
  return list
end

function government.spend.fund(ctx, piece)
  local power = ctx.locals.power
  pay(ctx, power, 1)
  gov(ctx).funded[piece] = power
  ctx:log(string.format("%s funds %s (1 Resource).", name(ctx, power), ctx.data.pieces[piece].name))
  issues.fund(ctx, piece, power)
end

function government.spend.support(ctx)
  local power = ctx.locals.power
  local owned = ctx.data.tables.military_support_markers[power]
  local g = gov(ctx)
  local bought = g.supports[power] or 0
  if bought >= owned then
    error(string.format("%s owns %d Military Support markers and has bought them all", name(ctx, power), owned), 0)
  end
  pay(ctx, power, 1)
  g.supports[power] = bought + 1
  ctx:log(string.format("%s buys a Military Support marker (%d of %d), to place in the War Phase.", name(ctx, power),
    bought + 1, owned))
end

local function add_drm(ctx, roll, power, label)
  local g = gov(ctx)
  g.drm[roll] = g.drm[roll] or {}
  table.insert(g.drm[roll], { power = power, label = label })
end

function government.spend.lib_abs(ctx)
  local power = ctx.locals.power
  pay(ctx, power, 1)
  local side = lib_abs_side(ctx)
  add_drm(ctx, "lib_abs", power, string.format("%s's Resource", name(ctx, power)))
  ctx:log(string.format("%s spends 1 Resource: +1 on the %s roll.", name(ctx, power), SIDE_NAMES[side]))
end

function government.spend.pax(ctx)
  pay(ctx, "BR", 1)
  add_drm(ctx, "pax", "BR", "a British Resource")
  ctx:log("Britain spends 1 Resource: +1 on the Pax Britannica roll.")
end

function government.spend.pax_fleet(ctx, box)
  ctx:move_units(box, "pool.BR", "BR_fleet", 1)
  add_drm(ctx, "pax", "BR", "a fleet returned to the pool")
  ctx:log(string.format("Britain returns a fleet from %s to its force pool: +1 on the Pax Britannica roll.",
    ctx.data.boxes[box].name))
end

function government.spend.sound(ctx)
  local power = ctx.locals.power
  pay(ctx, power, 1)
  local vp = ctx:add_counter("vp." .. power, 1)
  ctx:log(string.format("%s: Sound Government, 1 Resource for 1 VP (%d).", name(ctx, power), vp))
end

function government.spend.done(ctx)
  local power = ctx.locals.power
  local left = resources(ctx, power)
  if left > 0 then
    ctx:set_counter("resources." .. power, 0)
    ctx:log(string.format("%s leaves %d Resources unspent; they are lost.", name(ctx, power), left))
  end
  ctx:pop({})
end

function government.spend.on_resume(ctx, result)
  issues.resume(ctx, ctx.locals.power, result)
end

-- The dice of the phase (16.3): the roll of the side that won and funded Liberalism /
-- Absolutism, then Pax Britannica. 4-6 after modifiers advances the pawn one space.
local function drm_sum(ctx, roll, title)
  local sum = modifiers.sum(title)
  for _, term in ipairs(gov(ctx).drm[roll] or {}) do
    sum:add(1, term.label)
  end
  return sum
end

-- The card bonuses of this turn for a roll ("Liberalism", "Pax Britannica"); a bonus for
-- "Liberalism or Pax Britannica" goes where its power chose.
local function card_bonuses(ctx, sum, roll_name)
  for _, bonus in ipairs(ctx.vars.drm_bonuses or {}) do
    local target = bonus.chosen or bonus.rolls
    if target == roll_name then
      sum:add(1, ctx.data.cards[bonus.card].name)
    end
  end
end

-- The next space of a track (its spaces in the data's order), or nil.
local function next_space(ctx, place, space)
  local spaces = ctx.data.places[place].spaces
  for i, entry in ipairs(spaces) do
    if entry.id == space then
      return spaces[i + 1] and spaces[i + 1].id or nil
    end
  end
  return nil
end

local function advance(ctx, pawn, place, roll_name, sum)
  local _, at = ctx:space_of(pawn)
  local to = next_space(ctx, place, at)
  if to == nil then
    ctx:log(string.format("The %s track has no space after %s in the module's data: add the track's spaces in the overlay; the roll is not made.",
      roll_name, ctx.data.places[place].space[at].name))
    return
  end
  local die = ctx:roll(6, roll_name .. " roll")
  sum:add(die, "the die")
  local total = sum:total()
  if total >= 4 then
    ctx:place(pawn, place, to)
    ctx:log(string.format("%s roll: %s, 4-6: the pawn advances to %s.", roll_name, sum:explain(),
      ctx.data.places[place].space[to].name))
    issues.score_space(ctx, place, to)
  else
    ctx:log(string.format("%s roll: %s, below 4: the pawn stays.", roll_name, sum:explain()))
  end
end

local function lib_abs_roll(ctx)
  local side = lib_abs_side(ctx)
  if side == nil or not gov(ctx).funded["issue.lib_abs"] then
    return
  end
  local sum = drm_sum(ctx, "lib_abs", SIDE_NAMES[side] .. " roll")
  if side == "liberalism" then
    card_bonuses(ctx, sum, "Liberalism")
  end
  advance(ctx, "pawn." .. side, side, SIDE_NAMES[side], sum)
end

-- Pax Britannica (L451-L459): after all the issues; each space has a prerequisite to try
-- to enter it, checked from the map where the space says which spaces must be Allied,
-- asked of the players otherwise.
local function pax_prerequisite(ctx)
  local _, at = ctx:space_of("pawn.pax_britannica")
  local to = next_space(ctx, "pax_britannica", at)
  if to == nil then
    return nil, nil
  end
  local props = ctx.data.places.pax_britannica.space[to].props
  if props.allied_control ~= nil then
    local missing = {}
    for _, ref in ipairs(props.allied_control) do
      local front, space = forces.parse_space(ref)
      if forces.controller(ctx, front, space) ~= "allied" then
        missing[#missing + 1] = ctx.data.places["front." .. string.lower(front)].space[space].name
      end
    end
    return #missing == 0, #missing == 0 and props.prerequisite or ("not Allied: " .. table.concat(missing, ", "))
  end
  return "ask", props.prerequisite
end

local function pax_roll(ctx)
  if powers.out(ctx, "BR") then
    return
  end
  local sum = drm_sum(ctx, "pax", "Pax Britannica roll")
  card_bonuses(ctx, sum, "Pax Britannica")
  advance(ctx, "pawn.pax_britannica", "pax_britannica", "Pax Britannica", sum)
end

-- The "Liberalism or Pax Britannica" card bonuses not chosen yet, by index: their powers
-- choose when both rolls are made.
local function open_bonuses(ctx)
  local open = {}
  if lib_abs_side(ctx) ~= "liberalism" or not gov(ctx).funded["issue.lib_abs"] then
    return open
  end
  for i, bonus in ipairs(ctx.vars.drm_bonuses or {}) do
    if bonus.rolls == "Liberalism or Pax Britannica" and bonus.chosen == nil then
      open[#open + 1] = i
    end
  end
  return open
end

-- Replacements (L1340): on a Replacement turn of the Turn Record Track each power's new
-- units (owner data by turn and kind) come from the force pools to the capitals, with the
-- phase's other new units; Swedish ones only while Sweden is at war.
local function replacements(ctx)
  local turn = tostring(ctx:turn())
  if ctx.data.places.turn.space[turn] == nil or ctx.data.places.turn.space[turn].props.replacement ~= true then
    return
  end
  local sweden = util.contains(ctx.vars.removed_issues or {}, "sweden_at_war") or ctx.vars.sweden_at_war_done == true
  for _, power in ipairs(powers.in_game(ctx)) do
    for _, kind in ipairs(forces.KINDS[power]) do
      if kind ~= "US_militia" and kind ~= "US" and (kind ~= "SW" or sweden) then
        local n = ctx.data.tables.replacements[turn .. "/" .. kind]
        if n > 0 then
          issues.recruit(ctx, power, kind, n, "Replacements")
        end
      end
    end
  end
end

-- The indices of `list`, in order.
local function indices(list)
  local out = {}
  for i in ipairs(list or {}) do
    out[i] = i
  end
  return out
end

-- The Government Phase (16.3), step by step. The order of play is worked out once, after
-- the income; the "Liberalism or Pax Britannica" bonuses open when both rolls are due are
-- chosen one by one before the Liberalism roll, and any left go to the Pax Britannica roll.
government.government = steps.procedure("16.3 Government Phase", {
  handicap.step("start of the Government Phase"),
  {
    name = "Income",
    run = function(ctx)
      income(ctx)
      ctx.locals.order = government.order(ctx)
    end,
  },
  {
    name = "Card bonuses",
    calls = "decide",
    each = function(ctx)
      return indices(ctx.vars.government_bonuses)
    end,
    run = function(ctx, b)
      local bonus = ctx.vars.government_bonuses[b]
      if bonus.card == "friedrich_wilhelm_iii" then
        return steps.call("decide", { power = "RU", key = "fw3", index = b,
          text = "King Friedrich Wilhelm III's bonus is printed \"1 VP unit\": how do the players read it?",
          options = { { arg = "vp", label = "1 VP for Russia" }, { arg = "unit", label = "1 Prussian unit for Russia" },
            { arg = "both", label = "1 VP and 1 Prussian unit" } } })
      end
      issues.government_bonus(ctx, bonus)
    end,
    resume = function(ctx, result)
      issues.government_bonus(ctx, ctx.vars.government_bonuses[result.index], result.choice)
    end,
  },
  {
    name = "Spending",
    calls = "spend",
    each = steps.listed("order"),
    label = name,
    run = function(ctx, power)
      return steps.call("spend", { power = power })
    end,
  },
  {
    name = "Liberalism or Pax Britannica",
    calls = "decide",
    each = open_bonuses,
    run = function(ctx, i)
      local bonus = ctx.vars.drm_bonuses[i]
      return steps.call("decide", { power = bonus.power, key = "bonus", index = i,
        text = string.format("%s's +1: on the Liberalism roll or on the Pax Britannica roll?", ctx.data.cards[bonus.card].name),
        options = { { arg = "Liberalism", label = "On the Liberalism roll" }, { arg = "Pax Britannica", label = "On the Pax Britannica roll" } } })
    end,
    resume = function(ctx, result)
      ctx.vars.drm_bonuses[result.index].chosen = result.choice
    end,
  },
  {
    name = "Liberalism roll",
    run = function(ctx)
      for _, bonus in ipairs(ctx.vars.drm_bonuses or {}) do
        if bonus.rolls == "Liberalism or Pax Britannica" and bonus.chosen == nil then
          bonus.chosen = "Pax Britannica"
        end
      end
      lib_abs_roll(ctx)
    end,
  },
  {
    name = "Pax Britannica",
    calls = "decide",
    run = function(ctx)
      local ok, why = pax_prerequisite(ctx)
      if ok == "ask" then
        return steps.call("decide", { power = "BR", key = "pax_prerequisite", everyone = true,
          text = string.format("Pax Britannica: is the next space's prerequisite met? (%s)", tostring(why)),
          options = { { arg = true, label = "Yes: Britain rolls" }, { arg = false, label = "No: no roll this turn" } } })
      elseif ok then
        pax_roll(ctx)
      elseif why then
        ctx:log(string.format("Pax Britannica: the next space's prerequisite is not met (%s); no roll.", why))
      end
    end,
    resume = function(ctx, result)
      if result.choice then
        pax_roll(ctx)
      else
        ctx:log("Pax Britannica: the players find the prerequisite not met; no roll.")
      end
    end,
  },
  {
    name = "Replacements",
    run = function(ctx)
      replacements(ctx)
    end,
  },
  {
    name = "New units",
    calls = "new_units",
    each = steps.listed("order"),
    skip = function(ctx, power)
      return forces.units(ctx, "reserve." .. power) <= 0
    end,
    label = name,
    run = function(ctx, power)
      return steps.call("new_units", { power = power })
    end,
  },
  finish = function()
    return {}
  end,
})

function government.government.on_enter(ctx)
  ctx.vars.government = { funded = {}, supports = {}, drm = {} }
  if ctx:turn() == 5 then
    -- The Napoleon Resurgent's final VP ask whether Austria at War was in effect at the end
    -- of the August 1813 Diplomacy Phase (17.2.4).
    ctx.vars.austria_at_war_t5 = powers.austria_at_war(ctx)
  end
end

-- New units and fleets (L461-L463): from the capital to the power's armies, or (French
-- US units, British units and fleets) to the War of 1812 box, one at a time. A power a
-- Playbook bot plays keeps what it does not place now as its reserve, placed in the War
-- Phase's strategic movement (the Allied bot's National Reserve, 20.9 L1655-L1659; the
-- French bot's Paris Reserve, 21.8.2 L1872).
government.new_units = {}

function government.new_units.prompt(ctx)
  local power = ctx.locals.power
  local reserve = "reserve." .. power
  local actions = {}
  local _, kinds = forces.units(ctx, reserve)
  for _, entry in ipairs(kinds) do
    for _, box in ipairs(forces.new_unit_targets(ctx, power, entry.kind)) do
      actions[#actions + 1] = { name = "place", arg = { kind = entry.kind, box = box }, box = box,
        label = string.format("A %s to %s", ctx.data.unit_kinds[entry.kind].name, ctx.data.boxes[box].name) }
    end
  end
  if solitaire.keeps_reserve(ctx, power) then
    actions[#actions + 1] = { name = "keep", label = string.format("Keep the rest in %s as the %s, placed in strategic movement",
      ctx.data.boxes[reserve].name, power == "FR" and "Paris Reserve (21.8.2)" or "National Reserve (20.9)") }
  end
  return {
    seat = powers.seat(ctx, power),
    text = string.format("%sNew units: %s has %s in %s to place.", powers.as_power(ctx, power), name(ctx, power),
      forces.describe(ctx, kinds), ctx.data.boxes[reserve].name),
    actions = actions,
  }
end

function government.new_units.place(ctx, arg)
  local power = ctx.locals.power
  ctx:move_units("reserve." .. power, arg.box, arg.kind, 1)
  ctx.locals.placed = ctx.locals.placed or {}
  table.insert(ctx.locals.placed, arg)
  ctx:log(string.format("%s places a %s in %s.", name(ctx, power), ctx.data.unit_kinds[arg.kind].name,
    ctx.data.boxes[arg.box].name))
  if forces.units(ctx, "reserve." .. power) == 0 then
    ctx:pop({})
  end
end

function government.new_units.keep(ctx)
  local power = ctx.locals.power
  if not solitaire.keeps_reserve(ctx, power) then
    error(string.format("%s keeps no reserve in this seating", name(ctx, power)), 0)
  end
  local _, kinds = forces.units(ctx, "reserve." .. power)
  ctx:log(string.format("%s keeps %s in %s, to place in strategic movement.", name(ctx, power), forces.describe(ctx, kinds),
    ctx.data.boxes["reserve." .. power].name))
  ctx:pop({})
end

return government
