-- Congress of Vienna: armies, units and control of the military map (16.3, 16.4). An army
-- is a block on a front's space with a box of the same name holding its units; Military
-- Support markers stand in the army's box too, but are not units. The War of 1812 box
-- holds both sides.

local util = include("@lib/util.lua")
local powers = include("rules/powers.lua")
local once = include("rules/once.lua")

local forces = {}

forces.FRONTS = { "A", "B", "C", "D", "E", "F", "G" }
forces.W1812 = "war_of_1812"

-- The unit kinds each power recruits and moves (its own nationals and allies).
forces.KINDS = {
  FR = { "FR", "US", "US_militia" },
  RU = { "RU", "PR", "SW" },
  AU = { "AU" },
  BR = { "BR", "SP", "PO", "BR_fleet" },
}

function forces.is_support(kind)
  return string.find(kind, "_support", 1, true) ~= nil
end

-- The power a unit kind belongs to.
function forces.owner_of_kind(ctx, kind)
  return ctx.data.unit_kinds[kind].owner
end

-- The side of a power: "FR" or "allied".
function forces.side(power)
  return power == "FR" and "FR" or "allied"
end

-- The box of an army block ("block.silesia" -> "army.silesia").
function forces.box(block)
  return "army." .. string.sub(block, 7)
end

function forces.block(box)
  return "block." .. string.sub(box, 6)
end

-- Every army block, in the data's order; only those `keep` accepts.
function forces.armies(ctx, keep)
  local list = {}
  for _, id in ipairs(util.pieces_of_kind(ctx, "block")) do
    if keep == nil or keep(id, ctx.data.pieces[id]) then
      list[#list + 1] = id
    end
  end
  return list
end

function forces.front_of(ctx, block)
  return ctx.data.pieces[block].props.front
end

-- Each block's owner, read once a game (bots ask for it again and again).
forces.owner = once.per_key(function(ctx, block)
  return ctx.data.pieces[block].owner
end)

-- The army's space; nil for an army not on its front's line (the Army of Bohemia in
-- Vienna before Austria is at war).
function forces.space(ctx, block)
  local _, space = ctx:space_of(block)
  if space == "vienna" then
    return nil
  end
  return space
end

-- Whether an army takes part in the war: on the line of its front, its power in the game.
function forces.active(ctx, block)
  return forces.space(ctx, block) ~= nil and not powers.out(ctx, forces.owner(ctx, block))
end

-- A power's armies that take part in the war (forces.active, written out: bots ask for
-- them again and again).
function forces.armies_of(ctx, power)
  local list = {}
  if powers.out(ctx, power) then
    return list
  end
  for _, id in ipairs(util.pieces_of_kind(ctx, "block")) do
    if forces.owner(ctx, id) == power and forces.space(ctx, id) ~= nil then
      list[#list + 1] = id
    end
  end
  return list
end

-- Each unit kind's place in the data's order, whether it is a Military Support marker, and
-- its side, read off the data once a game (forces.units runs for every box a bot weighs).
local kinds

local function kind_info(ctx, kind)
  if kinds == nil then
    kinds = {}
    for i, id in ipairs(ctx.data.unit_kind_ids) do
      kinds[id] = { order = i, support = forces.is_support(id), side = forces.side(forces.owner_of_kind(ctx, id)) }
    end
  end
  return kinds[kind]
end

local function in_data_order(ctx)
  return function(a, b)
    return kind_info(ctx, a.kind).order < kind_info(ctx, b.kind).order
  end
end

-- Units in a box (not Military Support markers), by kind in the data's order; only the
-- kinds of `side` ("FR" or "allied") if given. A box holds a few kinds of the many, so
-- its contents are read, then put in order.
function forces.units(ctx, box, side)
  local total, by_kind = 0, {}
  for kind, n in pairs(ctx:box(box)) do
    local info = kind_info(ctx, kind)
    if n > 0 and info and not info.support and (side == nil or info.side == side) then
      total = total + n
      by_kind[#by_kind + 1] = { kind = kind, n = n }
    end
  end
  if #by_kind > 1 then
    table.sort(by_kind, in_data_order(ctx))
  end
  return total, by_kind
end

-- Military Support markers in a box, of one side if given.
function forces.supports(ctx, box, side)
  local total = 0
  local contents = ctx:box(box)
  for kind, n in pairs(contents) do
    if forces.is_support(kind) and (side == nil or forces.side(forces.owner_of_kind(ctx, kind)) == side) then
      total = total + n
    end
  end
  return total
end

-- "3 French, 1 US" for a list of {kind, n}.
function forces.describe(ctx, by_kind)
  local parts = {}
  for _, entry in ipairs(by_kind) do
    parts[#parts + 1] = string.format("%d %s", entry.n, ctx.data.unit_kinds[entry.kind].name)
  end
  if #parts == 0 then
    return "no units"
  end
  return table.concat(parts, ", ")
end

-- The spaces of a front's line, from the Allied rear to the French rear: the links of the
-- front's map followed from its first linked space (Vienna stands apart).
function forces.line(ctx, front)
  local place = "front." .. string.lower(front)
  local spaces = ctx.data.places[place].spaces
  local start
  for _, space in ipairs(spaces) do
    local n = #ctx:neighbors(place, space.id)
    if n == 1 then
      start = space.id
      break
    end
  end
  local line = { start }
  local seen = { [start or ""] = true }
  while start do
    local nxt
    for _, other in ipairs(ctx:neighbors(place, start)) do
      if not seen[other] then
        nxt = other
      end
    end
    if nxt then
      line[#line + 1] = nxt
      seen[nxt] = true
    end
    start = nxt
  end
  return line
end

-- The next space from `space` toward `side`'s rear on a front, or nil when the map does
-- not know it.
function forces.rear(ctx, front, space, side)
  local line = forces.line(ctx, front)
  for i, id in ipairs(line) do
    if id == space then
      return line[side == "FR" and i + 1 or i - 1]
    end
  end
  return nil
end

-- Who controls a space of a front: the side whose army stands on it or behind it on the
-- line (spaces between the two sides' armies, none). Read from the armies' places.
function forces.controller(ctx, front, space)
  local line = forces.line(ctx, front)
  local index = {}
  for i, id in ipairs(line) do
    index[id] = i
  end
  if index[space] == nil then
    return nil
  end
  local allied, french
  for _, block in ipairs(forces.armies(ctx)) do
    if forces.front_of(ctx, block) == front and forces.active(ctx, block) then
      local at = index[forces.space(ctx, block)]
      if at then
        if forces.owner(ctx, block) == "FR" then
          french = math.min(french or at, at)
        else
          allied = math.max(allied or at, at)
        end
      end
    end
  end
  if allied and index[space] <= allied then
    return "allied"
  elseif french and index[space] >= french then
    return "FR"
  end
  return nil
end

-- The front a space of the military map belongs to ("front.c/castile" -> "C", "castile").
function forces.parse_space(ref)
  local place, space = string.match(ref, "^([%w_.]+)/([%w_]+)$")
  if place == nil then
    return nil
  end
  return string.upper(string.sub(place, 7)), space
end

-- The unit kind of a power's Military Support markers.
-- Where a new unit of `kind` may go (L461-L463): any army of its power, and (French US
-- units, British units and fleets) the War of 1812 box.
function forces.new_unit_targets(ctx, power, kind)
  local list = {}
  for _, block in ipairs(forces.armies_of(ctx, power)) do
    list[#list + 1] = forces.box(block)
  end
  if (power == "BR" and (kind == "BR" or kind == "BR_fleet")) or (power == "FR" and kind == "US") then
    list[#list + 1] = forces.W1812
  end
  return list
end

function forces.support_kind(power)
  return power .. "_support"
end

-- Whether `kind` is one of the unit kinds `power` recruits and moves.
function forces.kind_of_power(power, kind)
  return util.contains(forces.KINDS[power], kind)
end

return forces
