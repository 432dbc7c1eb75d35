//! The owner's board image, read within bounds: only a regular file, at most
//! [`MAX_IMAGE_BYTES`] on disk and [`MAX_IMAGE_PIXELS`] decoded (checked from its header
//! before decoding), and scaled down to what the graphics card can show as one texture.

use std::path::Path;

/// The largest image file read, in bytes.
pub const MAX_IMAGE_BYTES: u64 = 64 * 1024 * 1024;

/// The most pixels an image may have (a 600 dpi scan of a 22 × 34 inch map is about
/// 270 million; a board scanned for the screen needs far fewer): 64 million.
pub const MAX_IMAGE_PIXELS: u64 = 64 * 1024 * 1024;

/// Reads the image at `path` as RGBA pixels no wider or taller than `max_side` (the largest
/// texture the graphics card takes), or says why it cannot: not a regular file, too large
/// a file, more pixels than [`MAX_IMAGE_PIXELS`], or not a PNG or JPEG that decodes.
pub fn read_image(path: &Path, max_side: usize) -> Result<egui::ColorImage, String> {
    let shown = path.display();
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read {shown}: {e}"))?;
    if !meta.is_file() {
        return Err(format!(
            "{shown} is not a regular file: name a PNG or JPEG image file"
        ));
    }
    if meta.len() > MAX_IMAGE_BYTES {
        return Err(format!(
            "{shown} is {} MiB, larger than the {} MiB a board image may be: save it smaller",
            meta.len() / (1024 * 1024),
            MAX_IMAGE_BYTES / (1024 * 1024)
        ));
    }
    let open = || {
        image::ImageReader::open(path)
            .and_then(|r| r.with_guessed_format())
            .map_err(|e| format!("cannot read {shown}: {e}"))
    };
    let (width, height) = open()?
        .into_dimensions()
        .map_err(|e| format!("cannot read {shown}: {e}"))?;
    let pixels = u64::from(width) * u64::from(height);
    if pixels > MAX_IMAGE_PIXELS {
        return Err(format!(
            "{shown} is {width} × {height} pixels, more than the {} million a board image may have: scale it down (a board needs about 4000 pixels across)",
            MAX_IMAGE_PIXELS / (1024 * 1024)
        ));
    }
    let mut reader = open()?;
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(width);
    limits.max_image_height = Some(height);
    reader.limits(limits);
    let mut image = reader
        .decode()
        .map_err(|e| format!("cannot read {shown}: {e}"))?;
    let side = max_side.max(1) as u32;
    if image.width() > side || image.height() > side {
        image = image.resize(side, side, image::imageops::FilterType::Triangle);
    }
    let rgba = image.to_rgba8();
    let size = [rgba.width() as usize, rgba.height() as usize];
    Ok(egui::ColorImage::from_rgba_unmultiplied(
        size,
        rgba.as_raw(),
    ))
}
