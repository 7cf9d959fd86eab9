//! A simulated power cut, for the tests of durability (`--simulate-power-loss`):
//! a VFS in front of SQLite's own that keeps, beside every file it syncs, the
//! file as that sync left it (`NAME.durable`). What was written and never
//! synced is not there. Killing the server and putting each `.durable` image
//! in place of its file (and removing a file never synced) gives the files a
//! power cut would have left, as SQLite's crash tests do. Everything else goes
//! straight to the VFS underneath.
//!
//! Group commit's fsyncs go through the default VFS (see `group_commit`), so
//! this layer sees them as it sees SQLite's own.

use std::ffi::{CStr, OsStr, c_char, c_int, c_void};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::Once;

use libsqlite3_sys as ffi;

/// The image a sync leaves of `path`.
fn durable_image(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".durable");
    PathBuf::from(name)
}

/// Makes the simulating VFS SQLite's default, once, before any connection
/// opens.
pub(super) fn install() {
    static INSTALLED: Once = Once::new();
    INSTALLED.call_once(|| {
        // SAFETY: the default VFS lives for the process; the new one is leaked
        // (it must too) and copies the default's fields but three.
        unsafe {
            let under = ffi::sqlite3_vfs_find(std::ptr::null());
            if under.is_null() {
                tracing::error!("no default VFS: power loss is not simulated");
                return;
            }
            let mut vfs = std::ptr::read(under);
            vfs.szOsFile = c_int::try_from(REAL_OFFSET).unwrap_or(c_int::MAX) + (*under).szOsFile;
            vfs.zName = c"litewire-power-loss".as_ptr();
            vfs.pAppData = under.cast();
            vfs.pNext = std::ptr::null_mut();
            vfs.xOpen = Some(open);
            let vfs = Box::into_raw(Box::new(vfs));
            ffi::sqlite3_vfs_register(vfs, 1);
        }
    });
}

/// The file object SQLite allocates for this VFS: its own part, then the
/// underlying VFS's file.
#[repr(C)]
struct File {
    base: ffi::sqlite3_file,
    /// The file's path; NULL for a temporary file (never imaged).
    path: *mut PathBuf,
}

/// Where the underlying file starts, 8-byte aligned.
const REAL_OFFSET: usize = std::mem::size_of::<File>().div_ceil(8) * 8;

/// The underlying file of `file`.
///
/// # Safety
/// `file` is a file this VFS opened.
unsafe fn real(file: *mut ffi::sqlite3_file) -> *mut ffi::sqlite3_file {
    // SAFETY: the VFS allocates REAL_OFFSET + the underlying size (`install`).
    unsafe { file.cast::<u8>().add(REAL_OFFSET).cast() }
}

unsafe extern "C" fn open(
    vfs: *mut ffi::sqlite3_vfs,
    name: *const c_char,
    file: *mut ffi::sqlite3_file,
    flags: c_int,
    out_flags: *mut c_int,
) -> c_int {
    // SAFETY: SQLite hands a zeroed object of szOsFile bytes and this VFS,
    // whose pAppData is the underlying VFS (`install`).
    unsafe {
        let ours = file.cast::<File>();
        (*ours).base.pMethods = std::ptr::null();
        (*ours).path = std::ptr::null_mut();
        let under = (*vfs).pAppData.cast::<ffi::sqlite3_vfs>();
        let Some(open) = (*under).xOpen else {
            return ffi::SQLITE_CANTOPEN;
        };
        let real = real(file);
        let rc = open(under, name, real, flags, out_flags);
        let methods = (*real).pMethods;
        if methods.is_null() {
            return rc;
        }
        // METHODS forwards version 3's methods (the unix VFS's files have them).
        if (*methods).iVersion < 3 {
            if let Some(close) = (*methods).xClose {
                close(real);
            }
            return ffi::SQLITE_CANTOPEN;
        }
        if !name.is_null() {
            let path = OsStr::from_bytes(CStr::from_ptr(name).to_bytes());
            (*ours).path = Box::into_raw(Box::new(PathBuf::from(path)));
        }
        (*ours).base.pMethods = &METHODS;
        rc
    }
}

unsafe extern "C" fn close(file: *mut ffi::sqlite3_file) -> c_int {
    // SAFETY: a file this VFS opened, closed once; its path box is ours.
    unsafe {
        let real = real(file);
        let rc = match (*(*real).pMethods).xClose {
            Some(close) => close(real),
            None => ffi::SQLITE_OK,
        };
        let ours = file.cast::<File>();
        if !(*ours).path.is_null() {
            drop(Box::from_raw((*ours).path));
            (*ours).path = std::ptr::null_mut();
        }
        rc
    }
}

unsafe extern "C" fn sync(file: *mut ffi::sqlite3_file, flags: c_int) -> c_int {
    // SAFETY: a file this VFS opened.
    unsafe {
        let real = real(file);
        let rc = match (*(*real).pMethods).xSync {
            Some(sync) => sync(real, flags),
            None => ffi::SQLITE_OK,
        };
        let path = (*file.cast::<File>()).path;
        if rc != ffi::SQLITE_OK || path.is_null() {
            return rc;
        }
        match keep_image(&*path) {
            Ok(()) => ffi::SQLITE_OK,
            Err(_) => ffi::SQLITE_IOERR_FSYNC,
        }
    }
}

/// Copies `path` as it is now to its durable image, replacing the last one
/// whole (a rename).
fn keep_image(path: &Path) -> std::io::Result<()> {
    let image = durable_image(path);
    let mut partial = image.clone().into_os_string();
    partial.push("-partial");
    std::fs::copy(path, &partial)?;
    std::fs::rename(&partial, &image)
}

/// Forwards an I/O method to the underlying file, or answers `default`
/// where it has none.
macro_rules! forward {
    ($name:ident, $method:ident, ($($arg:ident: $ty:ty),*) -> $ret:ty, $default:expr) => {
        unsafe extern "C" fn $name(file: *mut ffi::sqlite3_file $(, $arg: $ty)*) -> $ret {
            // SAFETY: a file this VFS opened; the arguments are SQLite's, passed on.
            unsafe {
                let real = real(file);
                match (*(*real).pMethods).$method {
                    Some(method) => method(real $(, $arg)*),
                    None => $default,
                }
            }
        }
    };
}

forward!(read, xRead, (buf: *mut c_void, amount: c_int, offset: i64) -> c_int, ffi::SQLITE_IOERR_READ);
forward!(write, xWrite, (buf: *const c_void, amount: c_int, offset: i64) -> c_int, ffi::SQLITE_IOERR_WRITE);
forward!(truncate, xTruncate, (size: i64) -> c_int, ffi::SQLITE_IOERR_TRUNCATE);
forward!(file_size, xFileSize, (size: *mut i64) -> c_int, ffi::SQLITE_IOERR_FSTAT);
forward!(lock, xLock, (level: c_int) -> c_int, ffi::SQLITE_OK);
forward!(unlock, xUnlock, (level: c_int) -> c_int, ffi::SQLITE_OK);
forward!(check_reserved_lock, xCheckReservedLock, (out: *mut c_int) -> c_int, ffi::SQLITE_OK);
forward!(file_control, xFileControl, (op: c_int, arg: *mut c_void) -> c_int, ffi::SQLITE_NOTFOUND);
forward!(sector_size, xSectorSize, () -> c_int, 4096);
forward!(device_characteristics, xDeviceCharacteristics, () -> c_int, 0);
forward!(shm_map, xShmMap, (region: c_int, size: c_int, extend: c_int, out: *mut *mut c_void) -> c_int, ffi::SQLITE_IOERR_SHMMAP);
forward!(shm_lock, xShmLock, (offset: c_int, n: c_int, flags: c_int) -> c_int, ffi::SQLITE_IOERR_SHMLOCK);
forward!(shm_barrier, xShmBarrier, () -> (), ());
forward!(shm_unmap, xShmUnmap, (delete: c_int) -> c_int, ffi::SQLITE_OK);
forward!(fetch, xFetch, (offset: i64, amount: c_int, out: *mut *mut c_void) -> c_int, {
    *out = std::ptr::null_mut();
    ffi::SQLITE_OK
});
forward!(unfetch, xUnfetch, (offset: i64, page: *mut c_void) -> c_int, ffi::SQLITE_OK);

static METHODS: ffi::sqlite3_io_methods = ffi::sqlite3_io_methods {
    iVersion: 3,
    xClose: Some(close),
    xRead: Some(read),
    xWrite: Some(write),
    xTruncate: Some(truncate),
    xSync: Some(sync),
    xFileSize: Some(file_size),
    xLock: Some(lock),
    xUnlock: Some(unlock),
    xCheckReservedLock: Some(check_reserved_lock),
    xFileControl: Some(file_control),
    xSectorSize: Some(sector_size),
    xDeviceCharacteristics: Some(device_characteristics),
    xShmMap: Some(shm_map),
    xShmLock: Some(shm_lock),
    xShmBarrier: Some(shm_barrier),
    xShmUnmap: Some(shm_unmap),
    xFetch: Some(fetch),
    xUnfetch: Some(unfetch),
};
